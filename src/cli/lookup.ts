// Finding the command the words name (its aliases too), and for words that name none, the nearest that
// does: "did you mean sources?".
import { closest } from './closest';
import type { Command } from './command';
import { usageError, type CliError } from './errors';
import { plain } from './text';

const namesOf = (command: Command): string[] => [command.name, ...(command.aliases ?? [])];

/** `sources add x` -> the `sources add` command and its remaining words; a group alone -> its name. */
export function findCommand(commands: Command[], argv: string[]): { command?: Command; group?: string; rest: string[] } {
  const [first = '', second = ''] = argv;
  const two = commands.find((c) => namesOf(c).includes(`${first} ${second}`));
  if (two) return { command: two, rest: argv.slice(2) };
  const one = commands.find((c) => namesOf(c).includes(first));
  if (one) return { command: one, rest: argv.slice(1) };
  if (commands.some((c) => c.name.startsWith(`${first} `))) return { group: first, rest: argv.slice(1) };
  return { rest: argv };
}

/** The first words of every command and alias (`sources`, `usage`, `help`), as typed first. */
export const topLevelWords = (commands: Command[]): string[] => [
  ...new Set([...commands.flatMap((c) => namesOf(c).map((name) => name.split(' ')[0] ?? name)), 'help']),
];

/** The words after `group` (`list`, `ls`, `add`, …). */
export const groupWords = (commands: Command[], group: string): string[] =>
  commands.flatMap((c) =>
    namesOf(c)
      .filter((name) => name.startsWith(`${group} `))
      .map((name) => name.slice(group.length + 1)),
  );

/** Unknown words, with the nearest command when there is one and where help is. */
export function unknownCommand(commands: Command[], argv: string[], group: string | undefined): CliError {
  const [first = '', second = ''] = argv;
  if (group) {
    const near = closest(second, groupWords(commands, group));
    const hint = near ? ` did you mean ${group} ${near}?` : '';
    return usageError(`Unknown command "${plain(`${group} ${second}`)}";${hint} see agent-widget ${group} --help.`);
  }
  const near = closest(first, topLevelWords(commands));
  return usageError(`Unknown command "${plain(first)}";${near ? ` did you mean ${near}?` : ''} see agent-widget --help.`);
}
