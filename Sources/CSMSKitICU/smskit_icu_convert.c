#include "smskit_icu_convert.h"
#include <unicode/ucnv.h>
#include <unicode/ucsdet.h>
#include <stdlib.h>
#include <string.h>

enum { PIVOT = 4096 };

struct smskit_icu_decoder {
    UConverter *source;
    UConverter *utf8;
    UChar pivot[PIVOT];
    UChar *pivotSource;
    UChar *pivotTarget;
    int started;
};

static void copy_name(const char *name, char *out, int32_t capacity) {
    if (out == NULL || capacity <= 0) return;
    size_t length = strlen(name);
    if (length >= (size_t)capacity) length = (size_t)capacity - 1;
    memcpy(out, name, length);
    out[length] = 0;
}

smskit_icu_decoder *smskit_icu_decoder_open(const char *name, char *canonical, int32_t capacity) {
    if (name == NULL || *name == 0) return NULL;
    UErrorCode status = U_ZERO_ERROR;
    UConverter *source = ucnv_open(name, &status);
    if (U_FAILURE(status) || source == NULL) return NULL;
    status = U_ZERO_ERROR;
    UConverter *utf8 = ucnv_open("UTF-8", &status);
    if (U_FAILURE(status) || utf8 == NULL) {
        ucnv_close(source);
        return NULL;
    }
    smskit_icu_decoder *decoder = calloc(1, sizeof(smskit_icu_decoder));
    if (decoder == NULL) {
        ucnv_close(source);
        ucnv_close(utf8);
        return NULL;
    }
    decoder->source = source;
    decoder->utf8 = utf8;
    decoder->pivotSource = decoder->pivot;
    decoder->pivotTarget = decoder->pivot;
    status = U_ZERO_ERROR;
    const char *canonicalName = ucnv_getName(source, &status);
    copy_name(U_SUCCESS(status) && canonicalName ? canonicalName : name, canonical, capacity);
    return decoder;
}

int32_t smskit_icu_decoder_convert(smskit_icu_decoder *decoder, const char **source, const char *sourceLimit,
                                   char **target, char *targetLimit, int32_t flush) {
    UErrorCode status = U_ZERO_ERROR;
    ucnv_convertEx(decoder->utf8, decoder->source, target, targetLimit, source, sourceLimit,
                   decoder->pivot, &decoder->pivotSource, &decoder->pivotTarget, decoder->pivot + PIVOT,
                   decoder->started ? 0 : 1, flush ? 1 : 0, &status);
    decoder->started = 1;
    if (status == U_BUFFER_OVERFLOW_ERROR) return 1;
    if (U_FAILURE(status)) return -1;
    return 0;
}

void smskit_icu_decoder_close(smskit_icu_decoder *decoder) {
    if (decoder == NULL) return;
    ucnv_close(decoder->source);
    ucnv_close(decoder->utf8);
    free(decoder);
}

int32_t smskit_icu_detect_charset(const char *bytes, int32_t length, char *out, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UCharsetDetector *detector = ucsdet_open(&status);
    if (U_FAILURE(status) || detector == NULL) return -1;
    ucsdet_setText(detector, bytes, length, &status);
    const UCharsetMatch *match = U_SUCCESS(status) ? ucsdet_detect(detector, &status) : NULL;
    int32_t confidence = -1;
    if (U_SUCCESS(status) && match != NULL) {
        const char *name = ucsdet_getName(match, &status);
        int32_t found = ucsdet_getConfidence(match, &status);
        if (U_SUCCESS(status) && name != NULL) {
            copy_name(name, out, capacity);
            confidence = found;
        }
    }
    ucsdet_close(detector);
    return confidence;
}
