/** Builds a UUID v4 generator from a random source in [0, 1). */
export function uuidFactory(random: () => number): () => string {
  return () => {
    let hex = '';
    for (let i = 0; i < 32; i++) {
      let d = Math.floor(random() * 16) & 15;
      if (i === 12) d = 4;
      if (i === 16) d = (d & 3) | 8;
      hex += d.toString(16);
    }
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  };
}

/** ISO 8601 text of a time in ms. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
