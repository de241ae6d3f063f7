#ifndef CSMSKITICUTIME_H
#define CSMSKITICUTIME_H
// Time zone rules from the system ICU (libicu-dev), beside CSMSKitICU and for the same reason
// (Debian's ICU exports version-suffixed symbols that only its headers map), for PhoneNumberTimeZones' sending windows:
// the UTC offset of an IANA zone at an instant and the zone's next offset transition, from the
// tz database ICU carries (smskit_icu_tz_data_version()).
//
// Instants are milliseconds since 1970-01-01T00:00:00Z (ICU's UDate), offsets milliseconds east
// of UTC. Zone IDs are ASCII with an explicit length. Nothing here throws or allocates after a
// zone's first use; every function is safe to call from any thread.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A time zone ICU knows, opened once and kept for the life of the process. Opaque.
typedef struct smskit_icu_time_zone smskit_icu_time_zone;

/// The zone with IANA ID `zoneID` kept in cache slot `slot` (0 ..< 4096): opened on the slot's
/// first use, then returned as is. Callers give each ID a slot of its own (PhoneNumberTimeZones
/// uses its table's zone index) and always pass the same ID for a slot.
/// Returns NULL when the slot is out of range, the ID is empty or longer than 64 bytes, or ICU
/// does not know the zone (it would otherwise answer "Etc/Unknown", which is GMT).
const smskit_icu_time_zone *smskit_icu_time_zone_shared(uint32_t slot, const char *zoneID, int32_t length);

/// The zone's total offset from UTC (raw plus daylight saving) at `instant`, in milliseconds.
/// Writes the offset to `offset` and returns 1, or returns 0 when ICU reports an error
/// (an instant far outside ICU's range, a NaN).
int32_t smskit_icu_time_zone_offset(const smskit_icu_time_zone *zone, double instant, int32_t *offset);

/// The zone's first offset transition strictly after `instant`. Writes its instant to
/// `transition` and returns 1, or returns 0 when the zone has no later transition (a fixed
/// offset, or a zone that stopped observing daylight saving).
int32_t smskit_icu_time_zone_next_transition(const smskit_icu_time_zone *zone, double instant, double *transition);

/// The version of the tz database in the system ICU, e.g. "2022e"; "" when unknown.
const char *smskit_icu_tz_data_version(void);

#ifdef __cplusplus
}
#endif

#endif
