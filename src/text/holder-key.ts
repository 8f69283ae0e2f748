/**
 * The identity of a holder across spellings: NFKC, lower-cased, letters and digits only, so
 * `D. E. Shaw & Co., L.P.` and `D.E. SHAW & CO LP` are one holder.
 */
export function holderKey(name: string): string {
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}
