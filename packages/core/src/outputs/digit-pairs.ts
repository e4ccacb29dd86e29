// Decimal digits two at a time, for the number and address writers of CSV rows.

export const ZERO = 48;

/** "00", "01", … "99" as ASCII byte pairs: two digits per division. */
export const PAIRS = new Uint8Array(200);
for (let i = 0; i < 100; i++) {
  PAIRS[2 * i] = ZERO + ((i / 10) | 0);
  PAIRS[2 * i + 1] = ZERO + (i % 10);
}
