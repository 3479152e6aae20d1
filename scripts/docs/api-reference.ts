/**
 * docs/reference/api.md, generated from the OpenAPI document the API serves (api/openapi/build-openapi.ts):
 * every operation with its cost, parameters, body fields and statuses. docs/api.md explains the semantics.
 */
import { buildOpenApi } from '../../api/openapi/build-openapi.ts';
import { GENERATED_NOTICE, cell } from './markdown.ts';

interface Schema {
  type?: string;
  enum?: unknown[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
  $ref?: string;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}
interface Operation {
  summary?: string;
  'x-unit-cost'?: string;
  'x-endpoint-tag'?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { description?: string }>;
}

const MAX_ENUM_SHOWN = 12;

/** A schema's type in a few words: `string`, one of a short enum, `array of object`, bounds. */
export function typeOf(schema: Schema | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return schema.$ref.split('/').at(-1) ?? '';
  if (schema.enum) {
    const values = schema.enum.map((value) => `\`${String(value)}\``);
    return values.length > MAX_ENUM_SHOWN ? `one of ${values.length} values` : values.join(', ');
  }
  const bounds = [
    schema.minimum !== undefined || schema.maximum !== undefined ? `${schema.minimum ?? ''}–${schema.maximum ?? ''}` : '',
    schema.minLength !== undefined || schema.maxLength !== undefined ? `length ${schema.minLength ?? 0}–${schema.maxLength ?? ''}` : '',
    schema.minItems !== undefined || schema.maxItems !== undefined ? `${schema.minItems ?? 0}–${schema.maxItems ?? ''} items` : '',
  ].filter(Boolean);
  const base = schema.type === 'array' ? `array of ${typeOf(schema.items)}` : (schema.type ?? 'any');
  return bounds.length > 0 ? `${base} (${bounds.join(', ')})` : base;
}

function operationSection(method: string, path: string, op: Operation): string[] {
  const lines = [`## \`${method.toUpperCase()} ${path}\``, '', op.summary ?? '', ''];
  const key = op.security && op.security.length > 0 ? 'API key' : 'public';
  lines.push(
    `Access: ${key}${op['x-endpoint-tag'] ? `, endpoint tag \`${op['x-endpoint-tag']}\`` : ''}; cost: ${op['x-unit-cost'] ?? '0'}.`,
    '',
  );
  const parameters = op.parameters ?? [];
  if (parameters.length > 0) {
    lines.push('| parameter | in | required | type | meaning |', '|---|---|---|---|---|');
    for (const p of parameters)
      lines.push(`| \`${p.name}\` | ${p.in} | ${p.required ? 'yes' : 'no'} | ${cell(typeOf(p.schema))} | ${cell(p.description ?? '')} |`);
    lines.push('');
  }
  const body = op.requestBody?.content?.['application/json']?.schema;
  if (body?.properties) {
    const required = new Set(body.required ?? []);
    lines.push('| body field | required | type | meaning |', '|---|---|---|---|');
    for (const [name, field] of Object.entries(body.properties))
      lines.push(`| \`${name}\` | ${required.has(name) ? 'yes' : 'no'} | ${cell(typeOf(field))} | ${cell(field.description ?? '')} |`);
    lines.push('');
  }
  lines.push('| status | when |', '|---|---|');
  for (const [status, response] of Object.entries(op.responses ?? {})) lines.push(`| ${status} | ${cell(response.description ?? '')} |`);
  lines.push('');
  return lines;
}

export function renderApiReference(): string {
  const document = buildOpenApi('http://127.0.0.1:8080') as unknown as {
    info: { title: string; version: string };
    paths: Record<string, Record<string, Operation>>;
  };
  const sections = Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, op]) => operationSection(method, path, op)),
  );
  return [
    `# API reference: ${document.info.title} ${document.info.version}`,
    '',
    GENERATED_NOTICE('scripts/docs/api-reference.ts', 'the OpenAPI document (`api/openapi/build-openapi.ts`, served at `/openapi.json`)'),
    'What the fields mean, errors, caching and refresh: [api.md](../api.md). Try requests at `/docs` (Swagger UI).',
    '',
    ...sections,
  ]
    .join('\n')
    .trimEnd()
    .concat('\n');
}
