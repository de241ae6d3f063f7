// Region names and codes to ISO 3166-1 alpha-2, generated from Unicode CLDR by
// tools/regions/generate_region_names.py (see region_names.c). Read through SMSKitRecords.RegionNames.
#ifndef CSMSKIT_REGION_NAMES_H
#define CSMSKIT_REGION_NAMES_H

typedef struct {
    const char *name;  // normalized: lowercased, straight apostrophes, no periods, single spaces (UTF-8)
    const char *code;  // ISO 3166-1 alpha-2
    char kind;         // 'a' alpha-2 code, '3' alpha-3 code, 'n' name, 'm' common mistake (UK, EL)
} smskit_region_name;

/// The table, sorted by name (bytes); `smskit_region_name_count` entries.
const smskit_region_name *smskit_region_names(void);
extern const int smskit_region_name_count;
extern const char *const smskit_region_names_cldr_version;

#endif
