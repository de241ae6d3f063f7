#ifndef SMSKIT_ICU_CONVERT_H
#define SMSKIT_ICU_CONVERT_H
// Streaming conversion of any encoding ICU knows to UTF-8, and ICU's charset detector, for the
// record reader's --encoding (unsuffixed wrappers: Debian's ICU exports ucnv_open_72 and so on).

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A converter from one encoding to UTF-8 that keeps its state between calls (a character cut
/// by the end of one block is finished by the next).
typedef struct smskit_icu_decoder smskit_icu_decoder;

/// Opens a decoder for an ICU converter name or alias ("windows-1252", "latin1", "Shift_JIS",
/// "GB18030", "KOI8-R", "UTF-16LE"). Writes ICU's canonical name to `canonical` (NUL-terminated,
/// truncated to `capacity`). Returns NULL when ICU does not know the name. Bytes that are not
/// valid in the encoding become U+FFFD (ICU's substitution).
smskit_icu_decoder *smskit_icu_decoder_open(const char *name, char *canonical, int32_t capacity);

/// Converts from `*source` up to `sourceLimit` into `*target` up to `targetLimit`, advancing
/// both. `flush` is 1 once the source holds the input's last bytes. Returns 0 when all of the
/// source was taken (and, with `flush`, everything written), 1 when the target is full (call
/// again with more room), -1 on an error ICU reports.
int32_t smskit_icu_decoder_convert(smskit_icu_decoder *decoder, const char **source, const char *sourceLimit,
                                   char **target, char *targetLimit, int32_t flush);

void smskit_icu_decoder_close(smskit_icu_decoder *decoder);

/// ICU's charset detector on `bytes`: writes the most likely encoding's name ("ISO-8859-1",
/// "windows-1252", "Shift_JIS", "KOI8-R") to `out`, NUL-terminated. Returns its confidence
/// (0-100), or -1 when nothing was detected.
int32_t smskit_icu_detect_charset(const char *bytes, int32_t length, char *out, int32_t capacity);

#ifdef __cplusplus
}
#endif
#endif
