/**
 * docs/reference/configuration.md, generated from the configuration schema (names, defaults, accepted
 * values) and CONFIG_NOTES (what each variable means).
 */
import { z } from 'zod';
import { configSchema } from '../../platform/config.ts';
import { CONFIG_NOTES } from './config-notes.ts';
import { GENERATED_NOTICE, cell } from './markdown.ts';

interface JsonSchemaField {
  type?: string;
  default?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

/** What a variable accepts, in words, from its JSON Schema. */
export function acceptedValues(field: JsonSchemaField): string {
  if (field.enum) return field.enum.map((value) => `\`${String(value)}\``).join(', ');
  if (field.type === 'integer' || field.type === 'number') {
    const kind = field.type === 'integer' ? 'whole number' : 'number';
    const low = field.exclusiveMinimum !== undefined ? `> ${field.exclusiveMinimum}` : `${field.minimum ?? ''}`;
    const high = field.maximum !== undefined && field.maximum < Number.MAX_SAFE_INTEGER ? `${field.maximum}` : '';
    if (field.exclusiveMinimum !== undefined) return `${kind} ${low}${high ? `, ≤ ${high}` : ''}`;
    return high ? `${kind} ${low}–${high}` : `${kind} ≥ ${low}`;
  }
  if (field.format === 'uri') return 'a URL';
  if (field.pattern) return `text matching \`${field.pattern}\``;
  if (field.maxLength !== undefined) return `text of ${field.minLength ?? 0}–${field.maxLength} characters`;
  return 'text';
}

/** The default a reader sees: the schema's own, else the derived one from the notes, else unset. */
function shownDefault(name: string, field: JsonSchemaField): string {
  if (field.default !== undefined) return `\`${String(field.default)}\``;
  return CONFIG_NOTES[name]?.shownDefault ?? 'unset';
}

export function renderConfigReference(): string {
  const schema = z.toJSONSchema(configSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, JsonSchemaField>;
  };
  const rows = Object.entries(schema.properties).map(([name, field]) => {
    const meaning = CONFIG_NOTES[name]?.meaning ?? '(not described: add it to scripts/docs/config-notes.ts)';
    const accepts = CONFIG_NOTES[name]?.accepts ?? acceptedValues(field);
    return `| \`${name}\` | ${cell(shownDefault(name, field))} | ${cell(accepts)} | ${cell(meaning)} |`;
  });
  return [
    '# Configuration reference',
    '',
    GENERATED_NOTICE('scripts/docs/config-reference.ts', 'the schema in `platform/config.ts` and `scripts/docs/config-notes.ts`'),
    '',
    'Environment variables, validated once at start; a bad value stops the process with one message listing every',
    'problem and what is accepted.',
    '',
    '| variable | default | accepts | meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
