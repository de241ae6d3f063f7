#!/usr/bin/env python3
"""Independent SMPP 3.4 codecs for PhoneVerificationSMPPTests' cross-check: PyPI's smpp34 (Rust)
and smpplib (pure Python). One JSON request per stdin line, one JSON answer per stdout line:

  {"decode": hex}   -> {"smpp34": {...} | {"error": ...}, "smpplib": {...} | {"error": ...}}
  {"encode": {"command": "submit_sm"|"deliver_sm", <fields>, "short_message": hex,
              "tlvs": [[tag, hex]], "sequence_number": n}}  -> {"hex": smpp34's encoding}
"""
import json
import sys

import smpp34
import smpplib.smpp

FIELDS = ("service_type", "source_addr_ton", "source_addr_npi", "source_addr", "dest_addr_ton",
          "dest_addr_npi", "destination_addr", "esm_class", "protocol_id", "priority_flag",
          "schedule_delivery_time", "validity_period", "registered_delivery", "replace_if_present_flag",
          "data_coding", "sm_default_msg_id")


class _Sequence:
    def next_sequence(self):
        return 1


def text(value):
    if value is None:
        return ""
    return value.decode("latin-1") if isinstance(value, bytes) else value


def by_smpp34(data):
    try:
        pdu = smpp34.decode(data)
    except Exception as error:  # noqa: BLE001 (the oracle reports any refusal)
        return {"error": str(error)}
    if isinstance(pdu, (smpp34.SubmitSm, smpp34.DeliverSm)):
        out = {name: getattr(pdu, name) for name in FIELDS}
        out.update(command_id=pdu.command_id, sequence_number=pdu.sequence_number,
                   short_message=pdu.short_message.hex(), tlvs=[[t.tag, t.value.hex()] for t in pdu.tlvs])
        return out
    return {"command_id": pdu.command_id, "command_status": pdu.command_status,
            "sequence_number": pdu.sequence_number, "body": pdu.body.hex()}


def by_smpplib(data):
    try:
        pdu = smpplib.smpp.parse_pdu(data, client=_Sequence())
    except Exception as error:  # noqa: BLE001
        return {"error": repr(error)}
    out = {"command": pdu.command, "sequence_number": pdu.sequence, "command_status": pdu.status}
    names = {"submit_sm": FIELDS, "deliver_sm": FIELDS,
             "bind_transceiver": ("system_id", "password", "system_type", "interface_version", "addr_ton",
                                  "addr_npi", "address_range"),
             "submit_sm_resp": ("message_id",), "deliver_sm_resp": ("message_id",),
             "bind_transceiver_resp": ("system_id",)}.get(pdu.command, ())
    if pdu.command in ("bind_transmitter", "bind_receiver"):
        names = ("system_id", "password", "system_type", "interface_version", "addr_ton", "addr_npi", "address_range")
    if pdu.command in ("bind_transmitter_resp", "bind_receiver_resp"):
        names = ("system_id",)
    for name in names:
        value = getattr(pdu, name, None)
        out[name] = text(value) if isinstance(value, (bytes, str)) or value is None else value
    if pdu.command in ("submit_sm", "deliver_sm"):
        out["short_message"] = (pdu.short_message or b"").hex()
        for name in ("message_payload", "receipted_message_id", "message_state", "sar_msg_ref_num",
                     "sar_total_segments", "sar_segment_seqnum"):
            value = getattr(pdu, name, None)
            if value is not None:
                out[name] = value.hex() if isinstance(value, bytes) else value
    return out


def encode(spec):
    cls = smpp34.SubmitSm if spec["command"] == "submit_sm" else smpp34.DeliverSm
    kwargs = {name: spec[name] for name in FIELDS if name in spec and name not in ("source_addr", "destination_addr")}
    pdu = cls(spec["source_addr"], spec["destination_addr"], bytes.fromhex(spec["short_message"]),
              tlvs=[smpp34.Tlv(tag, bytes.fromhex(value)) for tag, value in spec.get("tlvs", [])],
              sequence_number=spec["sequence_number"], **kwargs)
    return pdu.encode().hex()


for line in sys.stdin:
    request = json.loads(line)
    if "decode" in request:
        data = bytes.fromhex(request["decode"])
        answer = {"smpp34": by_smpp34(data), "smpplib": by_smpplib(data)}
    else:
        answer = {"hex": encode(request["encode"])}
    sys.stdout.write(json.dumps(answer) + "\n")
sys.stdout.flush()
