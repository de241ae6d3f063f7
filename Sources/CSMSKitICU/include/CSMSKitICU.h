#ifndef CSMSKITICU_H
#define CSMSKITICU_H
/// Returns the version of the system ICU this binary is linked against, e.g. "72.1".
const char *smskit_icu_version(void);
#endif
