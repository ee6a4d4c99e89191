function integerIn(min, max) {
    return { type: "number", validate: (n) => Number.isInteger(n) && n >= min && n <= max };
}
/** 64-bit bounds are not exactly representable as doubles: compare against 2^63 / 2^64 with `<`. */
const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;
export const formats = {
    int8: integerIn(-128, 127),
    int16: integerIn(-32768, 32767),
    int32: integerIn(-2147483648, 2147483647),
    int64: { type: "number", validate: (n) => Number.isInteger(n) && n >= -TWO_63 && n < TWO_63 },
    uint8: integerIn(0, 255),
    uint16: integerIn(0, 65535),
    uint32: integerIn(0, 4294967295),
    uint64: { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < TWO_64 },
    uint: { type: "number", validate: (n) => Number.isInteger(n) && n >= 0 && n < TWO_64 },
};
