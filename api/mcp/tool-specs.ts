import { z } from 'zod';
import type { RestRequest } from './rest-client.ts';

/**
 * What one MCP tool is: the REST call it makes, the zod schema its arguments are checked with
 * (the same object the REST route validates with, so the tool's JSON Schema is the route's
 * parameters) and the response schema its description is generated from.
 */
export interface ToolSpec<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  /** What the tool answers, in one sentence an assistant can choose it by. */
  summary: string;
  /** The REST route it calls, as documented (`GET /api/screen/{market}/{ticker}`). */
  route: string;
  /** Its quota cost, as the REST route charges it. */
  cost: string;
  input: Input;
  /** The REST response schema; its description and fields go into the tool's description. */
  response?: z.ZodType;
  request: (args: z.output<Input>) => RestRequest;
  /** True when the tool changes nothing and calling it twice answers the same (MCP's read-only hint). */
  readOnly: boolean;
}

/** A tool as the server registers it: its description generated, its arguments already parsed by `input`. */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  readOnly: boolean;
  request: (args: Record<string, unknown>) => RestRequest;
}

/** A tool from its spec, with its argument type inferred from `input`. */
export function defineTool<Input extends z.ZodObject>(spec: ToolSpec<Input>): McpTool {
  return {
    name: spec.name,
    title: spec.title,
    description: toolDescription(spec),
    input: spec.input,
    readOnly: spec.readOnly,
    // The SDK hands the handler what `spec.input` parsed, so the arguments have its output type.
    request: (args) => spec.request(args as z.output<Input>),
  };
}

/** A path segment as the route reads it (a ticker may carry `.`, never `/`). */
export function segment(value: string): string {
  return encodeURIComponent(value);
}

/** The description an MCP client shows: the summary, the REST call and cost, and what the response holds. */
export function toolDescription<Input extends z.ZodObject>(spec: ToolSpec<Input>): string {
  const parts = [spec.summary, `It calls ${spec.route} with your API key and costs what that call costs: ${spec.cost}.`];
  const answer = spec.response === undefined ? undefined : describeResponse(spec.response);
  if (answer) parts.push(answer);
  return parts.join(' ');
}

/** "Answers with <id> (<description>): field (description), …" from the response schema's registered metadata. */
function describeResponse(schema: z.ZodType): string | undefined {
  const meta = z.globalRegistry.get(schema);
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : {};
  const fields = Object.entries(shape).map(([name, field]) => {
    const description = z.globalRegistry.get(field)?.description;
    return description ? `${name} (${description})` : name;
  });
  if (meta === undefined && fields.length === 0) return undefined;
  const head = [meta?.id, meta?.description].filter(Boolean).join(': ');
  return `Answers with ${head || 'JSON'}${fields.length > 0 ? `; fields: ${fields.join('; ')}` : ''}.`;
}
