/// One search entry of the generated fictional-range table. Not API: the layout may change with the
/// generator.
///
/// `group` packs the country calling code, the number of digits and the number of leading wildcard
/// digits as `countryCode << 16 | length << 8 | wildcards`. `first` and `last` are the numeric values
/// of the digits after the wildcards. `row` indexes ``FictionalRanges/rows``; -1 marks an exception
/// row (a number carved out of a wider range, such as 555-1212).
package struct _FictionalRangeEntry: Sendable, Hashable {
    package var group: UInt32
    package var first: UInt64
    package var last: UInt64
    package var row: Int16

    package init(group: UInt32, first: UInt64, last: UInt64, row: Int16) {
        self.group = group
        self.first = first
        self.last = last
        self.row = row
    }
}

/// The half-open range of ``FictionalRanges/entries`` that one group key covers. Not API.
package struct _FictionalGroupBounds: Sendable, Hashable {
    package var start: Int32
    package var end: Int32

    package init(start: Int32, end: Int32) {
        self.start = start
        self.end = end
    }
}
