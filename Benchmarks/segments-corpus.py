#!/usr/bin/env python3
"""Writes the inputs of Benchmarks/segments-benchmark.sh (deterministic, seed fixed).

    python3 Benchmarks/segments-corpus.py OUT_DIR [N]

OUT_DIR/messages.txt   N messages, one per line: half short GSM 7-bit codes, a quarter UCS-2
                       (Cyrillic, Chinese, Arabic, accented French with a curly apostrophe, some
                       with an emoji), a quarter multipart GSM 7-bit with escaped characters
                       (about 220 septets: two segments), shuffled
OUT_DIR/gsm-short.txt  N messages of the first kind only
OUT_DIR/ucs2.txt       N messages of the second kind only
OUT_DIR/gsm-multipart.txt  N messages of the third kind only
OUT_DIR/numbers.txt    N phone numbers for `smskit validate --region DE`, in five shapes
                       (E.164, national with trunk 0, grouped with spaces, 0049 prefix, invalid)
"""
import os
import random
import sys

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200_000
rng = random.Random(28)
os.makedirs(out, exist_ok=True)


def code():
    return "%06d" % rng.randrange(1_000_000)


def gsm_short():
    return rng.choice([
        "Your code is {c}",
        "{c} is your verification code. Do not share it.",
        "Ihr Code lautet {c}. Gueltig fuer 10 Minuten.",
        "Use {c} to sign in to Example. Expires in 5 min.",
    ]).format(c=code())


def ucs2():
    return rng.choice([
        "Ваш код подтверждения: {c}. Никому его не сообщайте.",
        "您的验证码是{c},十分钟内有效,请勿泄露给他人。",
        "رمز التحقق الخاص بك هو {c}. لا تشاركه مع أحد.",
        "Votre code : {c}. Ne le partagez avec personne, c’est confidentiel.",
        "Your code is {c} 🔐 valid for 10 minutes",
    ]).format(c=code())


def gsm_multipart():
    body = ("Dear customer, your order {c} of 49,90€ has shipped [tracking: {{TRK-{c}}}]. "
            "Delivery is planned within 2~3 working days; questions? Reply HELP or call us. "
            "Visit example.com/orders|{c} to follow it. Thank you for shopping with us!")
    return body.format(c=code())


def number():
    subscriber = "%d%07d" % (rng.choice([151, 160, 170, 176, 30, 89, 40]), rng.randrange(10_000_000))
    shape = rng.randrange(5)
    if shape == 0:
        return "+49" + subscriber
    if shape == 1:
        return "0" + subscriber
    if shape == 2:
        return "0" + subscriber[:3] + " " + subscriber[3:6] + " " + subscriber[6:]
    if shape == 3:
        return "0049" + subscriber
    return "+49" + subscriber[:4]


kinds = {"gsm-short": gsm_short, "ucs2": ucs2, "gsm-multipart": gsm_multipart}
for name, make in kinds.items():
    with open(os.path.join(out, name + ".txt"), "w", encoding="utf-8") as f:
        for _ in range(n):
            f.write(make() + "\n")
mix = [gsm_short] * 2 + [ucs2, gsm_multipart]
with open(os.path.join(out, "messages.txt"), "w", encoding="utf-8") as f:
    for _ in range(n):
        f.write(rng.choice(mix)() + "\n")
with open(os.path.join(out, "numbers.txt"), "w", encoding="utf-8") as f:
    for _ in range(n):
        f.write(number() + "\n")
