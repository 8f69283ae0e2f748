/**
 * Splits escaped text into pieces of at most `max` characters, never inside one of its atoms: `atoms`
 * (a global regex) matches each escape or entity of the channel's markup, and any one code point else.
 */
export function chunkEscaped(text: string, max: number, atoms: RegExp): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const atom of text.match(atoms) ?? []) {
    if (piece.length + atom.length > max) {
      pieces.push(piece);
      piece = '';
    }
    piece += atom;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
