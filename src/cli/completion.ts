// Shell completion scripts for bash, zsh and fish, generated from the command table so they list exactly
// the commands, aliases, options and fixed choices the CLI parses.
import { optionsOf, type Command } from './command';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Options every command takes that the table does not list (they are read before parsing). */
const ALWAYS = ['--debug', '--no-color'];

/** What can follow one command: its options, and the choices of an argument like `agent|storage`. */
interface Completion {
  /** The words that select it, e.g. `sources list` or `sources ls`. */
  names: string[];
  words: string[];
}

/** A word as the CLI defines it (`sources`, `--max-pages`, `bash`): safe in any shell's quoting. */
const SAFE = /^-{0,2}[a-z][a-z0-9-]*$/;

function completionsOf(commands: Command[]): Completion[] {
  return commands.map((command) => {
    const choices = command.args.filter((arg) => !arg.startsWith('<')).flatMap((arg) => arg.split('|'));
    const options = Object.keys(optionsOf(command)).map((name) => `--${name}`);
    return { names: [command.name, ...(command.aliases ?? [])], words: [...choices, ...options, ...ALWAYS].filter((w) => SAFE.test(w)) };
  });
}

/** The first words (`sources`, `usage`, `help`) and, for each group, the words after it (`list`, `ls`, …). */
function treeOf(completions: Completion[]): { top: string[]; groups: Map<string, string[]> } {
  const groups = new Map<string, string[]>();
  const top: string[] = [];
  for (const name of completions.flatMap((c) => c.names)) {
    const [first = '', second] = name.split(' ');
    if (!top.includes(first)) top.push(first);
    if (second !== undefined) groups.set(first, [...(groups.get(first) ?? []), second]);
  }
  return { top: [...top, 'help'], groups };
}

const list = (words: string[]): string => words.join(' ');

/** How bash and zsh spell the pieces the one `case` tree below is made of. */
interface Dialect {
  /** The word at `index` of the command line (0 is agent-widget itself). */
  wordAt(index: number): string;
  /** Whether the word being completed is at `index`. */
  completing(index: number): string;
  /** Offers `words`. */
  offer(words: string[]): string;
}

const BASH: Dialect = {
  wordAt: (index) => `"\${COMP_WORDS[${index}]}"`,
  completing: (index) => `[[ $COMP_CWORD -eq ${index} ]]`,
  offer: (words) => `words='${list(words)}'`,
};

// zsh's $words and $CURRENT count from 1.
const ZSH: Dialect = {
  wordAt: (index) => `$words[${index + 1}]`,
  completing: (index) => `(( CURRENT == ${index + 1} ))`,
  offer: (words) => `choices=(${list(words)})`,
};

/** The words to offer, by the words before: the groups, a group's commands, a command's options. */
function caseTree(commands: Command[], shell: Dialect): string[] {
  const completions = completionsOf(commands);
  const { top, groups } = treeOf(completions);
  const second = (name: string): string => name.split(' ')[1] ?? name;
  return [
    `  if ${shell.completing(1)}; then ${shell.offer(top)}`,
    '  else',
    `    case ${shell.wordAt(1)} in`,
    ...[...groups].flatMap(([group, members]) => [
      `      ${group})`,
      `        if ${shell.completing(2)}; then ${shell.offer(members)}`,
      `        else case ${shell.wordAt(2)} in`,
      ...completions
        .filter((c) => c.names[0]?.startsWith(`${group} `))
        .map((c) => `          ${c.names.map(second).join('|')}) ${shell.offer(c.words)} ;;`),
      '        esac; fi ;;',
    ]),
    ...completions.filter((c) => !c.names[0]?.includes(' ')).map((c) => `      ${c.names.join('|')}) ${shell.offer(c.words)} ;;`),
    `      help) ${shell.offer(top)} ;;`,
    '    esac',
    '  fi',
  ];
}

const bash = (commands: Command[]): string =>
  [
    '# agent-widget completion for bash. Load it in ~/.bashrc: source <(agent-widget completion bash)',
    '_agent_widget() {',
    '  local words=',
    ...caseTree(commands, BASH),
    '  COMPREPLY=($(compgen -W "$words" -- "${COMP_WORDS[COMP_CWORD]}"))',
    '}',
    'complete -F _agent_widget agent-widget',
    '',
  ].join('\n');

const zsh = (commands: Command[]): string =>
  [
    '#compdef agent-widget',
    '# agent-widget completion for zsh. Load it in ~/.zshrc, after compinit: source <(agent-widget completion zsh)',
    '_agent_widget() {',
    '  local -a choices',
    ...caseTree(commands, ZSH),
    '  compadd -- $choices',
    '}',
    'compdef _agent_widget agent-widget',
    '',
  ].join('\n');

function fish(commands: Command[]): string {
  const completions = completionsOf(commands);
  const { top, groups } = treeOf(completions);
  const lines = [
    '# agent-widget completion for fish. Save it: agent-widget completion fish > ~/.config/fish/completions/agent-widget.fish',
    'complete -c agent-widget -f',
    `complete -c agent-widget -n __fish_use_subcommand -a '${list(top)}'`,
  ];
  for (const [group, members] of groups)
    lines.push(
      `complete -c agent-widget -n '__fish_seen_subcommand_from ${group}; and not __fish_seen_subcommand_from ${list(members)}' -a '${list(members)}'`,
    );
  for (const c of completions) {
    const [first = '', second] = (c.names[0] ?? '').split(' ');
    const after = second === undefined ? first : c.names.map((n) => n.split(' ')[1]).join(' ');
    const condition =
      second === undefined
        ? `__fish_seen_subcommand_from ${first}`
        : `__fish_seen_subcommand_from ${first}; and __fish_seen_subcommand_from ${after}`;
    lines.push(`complete -c agent-widget -n '${condition}' -a '${list(c.words)}'`);
  }
  lines.push(`complete -c agent-widget -n '__fish_seen_subcommand_from help' -a '${list(top)}'`, '');
  return lines.join('\n');
}

export function completionScript(shell: Shell, commands: Command[]): string {
  if (shell === 'bash') return bash(commands);
  if (shell === 'zsh') return zsh(commands);
  return fish(commands);
}
