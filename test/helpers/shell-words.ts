// Reading the shell lines the README and the Dockerfile show, the way a shell would split them.

/**
 * The words of one shell line: quoted text kept together (its quotes removed; nothing inside expanded),
 * an unquoted `#` starting a comment.
 */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      word = (word ?? '') + line.slice(i + 1, end);
      i = end;
    } else if (c === '#' && word === undefined) break;
    else if (c === ' ') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) words.push(word);
  return words;
}
