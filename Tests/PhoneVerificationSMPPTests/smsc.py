#!/usr/bin/env python3
"""An SMSC on loopback for PhoneVerificationSMPPTests, on PyPI's smpp34 (its Rust/tokio SMPP 3.4
server: framing, binds, windowing, enquire_link, PDU codec). Only the glue is ours: it records every
submit_sm the server decoded, answers it, and sends deliver_sm (receipts, incoming messages) when the
test asks.

    smsc.py --port PORT [--quiet] [--relay] [--tls CERT KEY]

--quiet (for Benchmarks/smpp-benchmark.sh): submit_sm are answered but neither reported nor receipted.
--relay: the port is a relay in front of the smpp34 server (on a port of its own) that reports the
command of every PDU a client sends ({"event": "pdu", "command": "unbind", ...}): smpp34 reports
an unbind and a dropped connection alike. --tls (implies --relay): the relay speaks TLS with this
certificate chain and key (Python's ssl module), as an SMSC behind a TLS terminator does.

stdout, one JSON object per line: {"event": "listening"} once the server listens, then
{"event": "bound"|"unbound", "session": ...}, {"event": "submit_sm", <every field>, "short_message":
hex, "tlvs": [[tag, hex], ...], "answer": message_id or status} and {"event": "deliver_sm_resp",
"tag": ..., "status": ...}; with --relay {"event": "pdu", "connection": n, "command": name or hex}
per PDU from a client, and {"event": "tls_error", "error": ...} for a refused TLS handshake.

stdin, one JSON command per line:
  {"cmd": "mode", "reject": [status, count] | null, "ids": "decimal"|"hex", "receipts": true|false,
   "receipt_tlvs": true|false, "delay_ms": n, "receipt_stat": "DELIVRD"|"UNDELIV"|..., "receipt_err": "000",
   "receipt_delay_ms": n}
  {"cmd": "deliver", "tag": ..., <deliver_sm fields>, "short_message": hex, "tlvs": [[tag, hex]]}
  {"cmd": "unbind", "receiving": true|false}: the SMSC unbinds the latest session (the latest that
  receives, or does not, with "receiving"); the ESME answers unbind_resp.
"""
import argparse
import asyncio
import json
import socket
import ssl
import sys
import time

import smpp34

# SMPP 3.4 message_state values of the receipt's stat: word.
MESSAGE_STATES = {"ENROUTE": 1, "DELIVRD": 2, "EXPIRED": 3, "DELETED": 4, "UNDELIV": 5, "ACCEPTD": 6, "UNKNOWN": 7,
                  "REJECTD": 8}

FIELDS = ("service_type", "source_addr", "source_addr_ton", "source_addr_npi", "destination_addr",
          "dest_addr_ton", "dest_addr_npi", "esm_class", "protocol_id", "data_coding", "registered_delivery")


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


COMMANDS = {0x00000002: "bind_transmitter", 0x00000001: "bind_receiver", 0x00000009: "bind_transceiver",
            0x00000004: "submit_sm", 0x80000005: "deliver_sm_resp", 0x00000006: "unbind",
            0x80000006: "unbind_resp", 0x00000015: "enquire_link", 0x80000015: "enquire_link_resp",
            0x80000000: "generic_nack"}


class Relay:
    """Forwards each client connection to the smpp34 server and reports the PDUs the client sends."""

    def __init__(self, inner_port, context):
        self.inner_port = inner_port
        self.context = context
        self.connections = 0

    async def handle(self, reader, writer):
        self.connections += 1
        number = self.connections
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", self.inner_port)
        except OSError:
            writer.close()
            return

        async def client_to_server():
            buffer = b""
            try:
                while True:
                    data = await reader.read(65536)
                    if not data:
                        break
                    upstream_writer.write(data)
                    buffer += data
                    while len(buffer) >= 8:
                        length = int.from_bytes(buffer[:4], "big")
                        if length < 16:  # a lying length: the server closes, nothing more to name
                            buffer = b""
                            break
                        if len(buffer) < length:
                            break
                        command = int.from_bytes(buffer[4:8], "big")
                        if command != 0x00000004 or not QUIET:
                            emit({"event": "pdu", "connection": number,
                                  "command": COMMANDS.get(command, "%08x" % command)})
                        buffer = buffer[length:]
                    await upstream_writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                upstream_writer.close()

        async def server_to_client():
            try:
                while True:
                    data = await upstream_reader.read(65536)
                    if not data:
                        break
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                writer.close()

        await asyncio.gather(client_to_server(), server_to_client())

    async def start(self, port):
        loop = asyncio.get_running_loop()
        if self.context is not None:
            # A refused handshake is reported, not printed as a traceback.
            previous = loop.get_exception_handler()

            def handler(loop, context):
                error = context.get("exception")
                if isinstance(error, (ssl.SSLError, ConnectionError)):
                    emit({"event": "tls_error", "error": str(error)})
                elif previous:
                    previous(loop, context)
                else:
                    loop.default_exception_handler(context)
            loop.set_exception_handler(handler)
        return await asyncio.start_server(self.handle, "127.0.0.1", port, ssl=self.context,
                                          ssl_handshake_timeout=10 if self.context else None)


QUIET = False


class SMSC:
    def __init__(self, quiet=False):
        self.quiet = quiet
        self.sessions = {}
        self.latest = None
        self.next_id = 1000
        self.ids = "decimal"
        self.receipts = True
        self.reject = None  # [status, remaining]
        self.delay = 0.0
        self.receipt_tlvs = True
        self.receipt_stat = "DELIVRD"
        self.receipt_err = "000"
        self.receipt_delay = 0.0
        self.tasks = set()

    def spawn(self, coro):
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def serve(self, server):
        while True:
            ev = await server.next()
            if isinstance(ev, smpp34.Esme):
                self.sessions[ev.session_id] = ev
                self.latest = ev
                emit({"event": "bound", "session": ev.session_id, "system_id": ev.system_id, "receives": ev.can_receive})
            elif isinstance(ev, smpp34.SubmitSmEvent):
                if self.quiet:
                    ev.accept(message_id=str(self.next_id))
                    self.next_id += 1
                else:
                    self.spawn(self.answer(ev))
            elif isinstance(ev, smpp34.Unbound):
                self.sessions.pop(ev.session_id, None)
                emit({"event": "unbound", "session": ev.session_id})

    async def answer(self, ev):
        record = {"event": "submit_sm", "session": ev.session_id}
        for name in FIELDS:
            record[name] = getattr(ev, name)
        record["short_message"] = ev.short_message.hex()
        record["tlvs"] = [[t.tag, t.value.hex()] for t in ev.tlvs]
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.reject and self.reject[1] > 0:
            self.reject[1] -= 1
            record["answer"] = self.reject[0]
            emit(record)
            ev.reject(self.reject[0])
            return
        number = self.next_id
        self.next_id += 1
        message_id = format(number, "x") if self.ids == "hex" else str(number)
        record["answer"] = message_id
        emit(record)
        ev.accept(message_id=message_id)
        if self.receipts and ev.registered_delivery & 0x03:
            # The receipt text of SMPP 3.4 appendix B; its id is always decimal, so with "ids": "hex"
            # submit_sm_resp and the receipt disagree on the base, as some SMSCs do.
            stamp = time.strftime("%y%m%d%H%M", time.gmtime())
            delivered = self.receipt_stat == "DELIVRD"
            text = ("id:%s sub:001 dlvrd:%s submit date:%s done date:%s stat:%s err:%s text:%s"
                    % (number, "001" if delivered else "000", stamp, stamp, self.receipt_stat, self.receipt_err,
                       ev.short_message[:20].decode("latin-1")))
            if self.receipt_delay:
                # As a network does: the receipt comes a while after the submit_sm_resp.
                await asyncio.sleep(self.receipt_delay)
            esme = self.receiver(ev.session_id)
            if esme is None:
                return
            try:
                resp = await esme.deliver_sm(ev.source_addr, text.encode("latin-1"),
                    source_addr=ev.destination_addr, source_addr_ton=ev.dest_addr_ton,
                    source_addr_npi=ev.dest_addr_npi, dest_addr_ton=ev.source_addr_ton,
                    dest_addr_npi=ev.source_addr_npi, esm_class=0x04, tlvs=[
                        smpp34.Tlv(smpp34.TLV_RECEIPTED_MESSAGE_ID, message_id.encode() + b"\0"),
                        smpp34.Tlv(smpp34.TLV_MESSAGE_STATE, bytes([MESSAGE_STATES.get(self.receipt_stat, 7)]))]
                    if self.receipt_tlvs else [])
            except smpp34.SmppError as error:  # the ESME unbound before its receipt
                emit({"event": "deliver_sm_error", "tag": "receipt:" + message_id, "error": str(error)})
                return
            emit({"event": "deliver_sm_resp", "tag": "receipt:" + message_id, "status": resp.command_status})

    def receiver(self, session_id=None):
        """Where a deliver_sm goes: the given session if it receives (a transceiver), else the
        latest session that receives (the receiver of a transmitter + receiver pair)."""
        esme = self.sessions.get(session_id)
        if esme is not None and esme.can_receive:
            return esme
        receivers = [e for e in self.sessions.values() if e.can_receive and (esme is None or e.system_id == esme.system_id)]
        return receivers[-1] if receivers else None

    async def deliver(self, cmd):
        esme = self.receiver()
        if esme is None:
            emit({"event": "deliver_sm_resp", "tag": cmd.get("tag"), "status": -1})
            return
        kwargs = {k: cmd[k] for k in FIELDS if k in cmd and k != "destination_addr"}
        tlvs = [smpp34.Tlv(tag, bytes.fromhex(value)) for tag, value in cmd.get("tlvs", [])]
        resp = await esme.deliver_sm(cmd["destination_addr"], bytes.fromhex(cmd.get("short_message", "")),
                                     tlvs=tlvs, **kwargs)
        emit({"event": "deliver_sm_resp", "tag": cmd.get("tag"), "status": resp.command_status})

    async def commands(self):
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
        while True:
            line = await reader.readline()
            if not line:
                return
            cmd = json.loads(line)
            if cmd["cmd"] == "mode":
                self.ids = cmd.get("ids", self.ids)
                self.receipts = cmd.get("receipts", self.receipts)
                self.reject = cmd.get("reject", self.reject)
                self.delay = cmd.get("delay_ms", self.delay * 1000) / 1000
                self.receipt_tlvs = cmd.get("receipt_tlvs", self.receipt_tlvs)
                self.receipt_stat = cmd.get("receipt_stat", self.receipt_stat)
                self.receipt_err = cmd.get("receipt_err", self.receipt_err)
                self.receipt_delay = cmd.get("receipt_delay_ms", self.receipt_delay * 1000) / 1000
                emit({"event": "mode"})
            elif cmd["cmd"] == "deliver":
                self.spawn(self.deliver(cmd))
            elif cmd["cmd"] == "unbind":
                # The latest session, or with "receiving" the latest that does (or does not) receive.
                candidates = [e for e in self.sessions.values()
                              if "receiving" not in cmd or e.can_receive == cmd["receiving"]]
                if candidates:
                    self.spawn(candidates[-1].unbind())


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--relay", action="store_true")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    args = parser.parse_args()
    global QUIET
    QUIET = args.quiet
    relay = None
    inner_port = args.port
    if args.relay or args.tls:
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        inner_port = probe.getsockname()[1]
        probe.close()
    server = smpp34.Server(host="127.0.0.1", port=inner_port, system_id="smsc34")
    await server.start()
    if inner_port != args.port:
        context = None
        if args.tls:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(args.tls[0], args.tls[1])
        relay = await Relay(inner_port, context).start(args.port)
    emit({"event": "listening", "port": args.port, "smpp34": smpp34.__version__})
    smsc = SMSC(quiet=args.quiet)
    serving = asyncio.ensure_future(smsc.serve(server))
    await smsc.commands()  # stdin closed: the test is done
    serving.cancel()
    if relay is not None:
        relay.close()
    await server.stop()


asyncio.run(main())
