// Time zone rules from the system ICU; see include/CSMSKitICUTime.h.
//
// A thin, bounded call into ICU's BasicTimeZone: no rule or calendar arithmetic of our own.
// Zones are opened once per cache slot and never closed, so a lookup after the first is a
// pointer load and a const ICU call (OlsonTimeZone's const methods are thread-safe: its lazy
// transition rules are built under ICU's own once-initialization).

#include "CSMSKitICUTime.h"

#include <unicode/basictz.h>
#include <unicode/timezone.h>
#include <unicode/tztrans.h>
#include <unicode/unistr.h>

#include <atomic>
#include <cmath>
#include <cstring>
#include <mutex>

using icu::BasicTimeZone;
using icu::TimeZone;
using icu::TimeZoneTransition;
using icu::UnicodeString;

struct smskit_icu_time_zone {
    BasicTimeZone *zone;
};

namespace {

constexpr uint32_t kSlots = 4096;
constexpr int32_t kMaxIDLength = 64;
// ICU's UDate range is far wider; we refuse instants beyond +-10,000 years before asking it.
constexpr double kMaxInstant = 3.2e14;

std::atomic<smskit_icu_time_zone *> slots[kSlots];
// Slots known to name a zone ICU lacks, so that a miss is not retried on every call.
std::atomic<bool> missing[kSlots];
std::mutex openLock;

smskit_icu_time_zone *open(const char *zoneID, int32_t length) {
    UnicodeString id = UnicodeString::fromUTF8(icu::StringPiece(zoneID, length));
    TimeZone *zone = TimeZone::createTimeZone(id);
    if (zone == nullptr) return nullptr;
    UnicodeString resolved;
    zone->getID(resolved);
    BasicTimeZone *basic = dynamic_cast<BasicTimeZone *>(zone);
    if (basic == nullptr || resolved == UnicodeString(u"Etc/Unknown")) {
        delete zone;
        return nullptr;
    }
    return new (std::nothrow) smskit_icu_time_zone{basic};
}

bool usable(double instant) { return std::isfinite(instant) && std::fabs(instant) <= kMaxInstant; }

} // namespace

extern "C" const smskit_icu_time_zone *smskit_icu_time_zone_shared(uint32_t slot, const char *zoneID, int32_t length) {
    if (slot >= kSlots || zoneID == nullptr || length <= 0 || length > kMaxIDLength) return nullptr;
    if (smskit_icu_time_zone *zone = slots[slot].load(std::memory_order_acquire)) return zone;
    if (missing[slot].load(std::memory_order_acquire)) return nullptr;
    std::lock_guard<std::mutex> guard(openLock);
    if (smskit_icu_time_zone *zone = slots[slot].load(std::memory_order_acquire)) return zone;
    smskit_icu_time_zone *zone = open(zoneID, length);
    if (zone == nullptr) {
        missing[slot].store(true, std::memory_order_release);
        return nullptr;
    }
    slots[slot].store(zone, std::memory_order_release);
    return zone;
}

extern "C" int32_t smskit_icu_time_zone_offset(const smskit_icu_time_zone *zone, double instant, int32_t *offset) {
    if (zone == nullptr || offset == nullptr || !usable(instant)) return 0;
    int32_t raw = 0, dst = 0;
    UErrorCode status = U_ZERO_ERROR;
    zone->zone->getOffset(instant, false, raw, dst, status);
    if (U_FAILURE(status)) return 0;
    *offset = raw + dst;
    return 1;
}

extern "C" int32_t smskit_icu_time_zone_next_transition(const smskit_icu_time_zone *zone, double instant, double *transition) {
    if (zone == nullptr || transition == nullptr || !usable(instant)) return 0;
    TimeZoneTransition next;
    if (!zone->zone->getNextTransition(instant, false, next)) return 0;
    *transition = next.getTime();
    return 1;
}

extern "C" const char *smskit_icu_tz_data_version(void) {
    static char version[32];
    static std::once_flag once;
    std::call_once(once, [] {
        UErrorCode status = U_ZERO_ERROR;
        const char *value = TimeZone::getTZDataVersion(status);
        if (U_SUCCESS(status) && value != nullptr && std::strlen(value) < sizeof version) {
            std::strcpy(version, value);
        }
    });
    return version;
}
