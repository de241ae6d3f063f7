// The phone-number metadata's automata as plain constant arrays, which the PhoneNumbers module
// reads in place: they live in the binary's read-only data, so there is nothing to decode or copy
// when a process first uses the metadata, and only the pages a walk touches are ever read.
//
// C rather than Swift because a Swift array literal of 125,000 values takes the compiler minutes;
// clang reads one in a fraction of a second. The arrays are generated, with this header's
// constants, by tools/metadata/generate_metadata.py (phone_number_tables.c).

#ifndef CPHONENUMBERTABLES_H
#define CPHONENUMBERTABLES_H

#include <stddef.h>
#include <stdint.h>

/// Zero words after the last word: a type DFA walk over bytes that are not digits reads at most
/// 4,095 words past its DFA's tail windows.
#define SMSKIT_PHONE_WORDS_PADDING 4096
/// Zero bytes before the first row byte: such a walk reads at most 48 bytes before its DFA's
/// first row.
#define SMSKIT_PHONE_ROWS_PADDING_BEFORE 64
/// Zero bytes after the last row byte: and at most 255 * 10 + 207 past it.
#define SMSKIT_PHONE_ROWS_PADDING_AFTER 2816

/// The DFA and program words (12 bits each, in uint16_t), then SMSKIT_PHONE_WORDS_PADDING zeros.
const uint16_t *smskit_phone_words(void);
/// The number of words, padding excluded.
size_t smskit_phone_word_count(void);

/// The type DFAs' row bytes (their transitions before their tail states, 10 a state), with
/// SMSKIT_PHONE_ROWS_PADDING_BEFORE zeros before the pointer and SMSKIT_PHONE_ROWS_PADDING_AFTER
/// after the last row byte.
const uint8_t *smskit_phone_type_rows(void);
/// The number of row bytes, padding excluded.
size_t smskit_phone_type_row_count(void);

#endif
