#!/usr/bin/env bash
# Installs Kannel (Debian's `kannel` and `kannel-extras`: bearerbox, smsbox and the fake SMSC
# /usr/lib/kannel/test/fakesmsc) for the PhoneVerificationKannelTests, when missing. The tests
# start their own bearerbox, smsbox and fakesmsc on loopback ports in a temporary directory and
# stop them; the package's own service is kept from starting (policy-rc.d), so nothing listens
# beyond the tests. Under CI=true those tests fail without Kannel; elsewhere they skip.
set -euo pipefail
if [ -x /usr/sbin/bearerbox ] && [ -x /usr/sbin/smsbox ] && [ -x /usr/lib/kannel/test/fakesmsc ]; then
    exit 0
fi
echo "kannel.sh: installing kannel kannel-extras" >&2
policy=/usr/sbin/policy-rc.d
added_policy=0
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && added_policy=1
fi
apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kannel kannel-extras >&2
[ "$added_policy" = 1 ] && rm -f "$policy"
exit 0
