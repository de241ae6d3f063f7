#include "CSMSKitICU.h"
#include <unicode/uversion.h>
#include <stdio.h>

const char *smskit_icu_version(void) {
    static char buffer[U_MAX_VERSION_STRING_LENGTH];
    UVersionInfo info;
    u_getVersion(info);
    u_versionToString(info, buffer);
    return buffer;
}
