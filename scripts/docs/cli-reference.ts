/** docs/reference/cli.md, generated from the commander program of `faithscreen` (cli/program.ts). */
import type { Command } from 'commander';
import { buildProgram } from '../../cli/program.ts';
import { GENERATED_NOTICE, cell } from './markdown.ts';

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

function usage(command: Command): string {
  const args = command.registeredArguments.map((arg) => {
    const name = `${arg.name()}${arg.variadic ? '...' : ''}`;
    return arg.required ? `<${name}>` : `[${name}]`;
  });
  const options = command.options.length > 0 ? ['[options]'] : [];
  return [commandPath(command), ...options, ...args].join(' ');
}

function section(command: Command): string[] {
  const lines = [`## \`${commandPath(command)}\``, '', command.description() || '(no description)', '', '```', usage(command), '```', ''];
  if (command.registeredArguments.length > 0) {
    lines.push('| argument | meaning |', '|---|---|');
    for (const arg of command.registeredArguments) lines.push(`| \`${arg.name()}\` | ${cell(arg.description || '')} |`);
    lines.push('');
  }
  if (command.options.length > 0) {
    lines.push('| option | meaning | default |', '|---|---|---|');
    for (const option of command.options) {
      const fallback = option.defaultValue === undefined ? '' : `\`${JSON.stringify(option.defaultValue)}\``;
      lines.push(`| \`${option.flags}\` | ${cell(option.description)} | ${fallback} |`);
    }
    lines.push('');
  }
  return lines;
}

/** Every command, depth first in the order the program registers them. */
function allCommands(command: Command): Command[] {
  return command.commands.flatMap((child) => [child, ...allCommands(child)]);
}

export function renderCliReference(): string {
  const program = buildProgram();
  const commands = allCommands(program).filter((command) => command.commands.length === 0 || command.options.length > 0);
  return [
    '# CLI reference: `faithscreen`',
    '',
    GENERATED_NOTICE('scripts/docs/cli-reference.ts', 'the commander program in `cli/program.ts`'),
    '',
    program.description(),
    '',
    ...commands.flatMap(section),
  ]
    .join('\n')
    .trimEnd()
    .concat('\n');
}
