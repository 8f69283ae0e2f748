// How the tests read config/example.yaml's commented-out keys (conventions in config/README.md).

// A commented-out key keeps its YAML indentation after `# `; prose comments never start with `key:`.
const COMMENTED_KEY = /^(\s*)# ( *(?:- )?[a-z][A-Za-z0-9]*:(?: |$).*)$/;

/** The example with every commented-out key enabled. */
export function uncomment(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(COMMENTED_KEY, '$1$2'))
    .join('\n');
}
