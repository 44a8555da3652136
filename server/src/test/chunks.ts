/** `bytes` cut into pieces of the given sizes (a recorder's or a socket's), the rest as a last piece. */
export function split(bytes: Buffer, sizes: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let offset = 0;
  for (const size of sizes) {
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  if (offset < bytes.length) chunks.push(bytes.subarray(offset));
  return chunks;
}
