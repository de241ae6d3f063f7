// The system ICU headers (Debian's libicu-dev). Swift does not call these directly:
// Debian renames every function with a version suffix (umsg_open_72), so CSMSKitICU wraps them.
#include <unicode/utypes.h>
#include <unicode/uloc.h>
