function chunkEscaped(text, max, atoms) {
  const pieces = [];
  let piece = "";
  for (const atom of text.match(atoms) ?? []) {
    if (piece.length + atom.length > max) {
      pieces.push(piece);
      piece = "";
    }
    piece += atom;
  }
  if (piece) pieces.push(piece);
  return pieces;
}
export {
  chunkEscaped
};
