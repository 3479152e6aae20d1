import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RestResponse } from './rest-client.ts';

/**
 * A REST answer as an MCP tool result. A success carries the JSON as text (every client shows
 * it) and, when it is an object, as structured content. An error is a tool error (`isError`),
 * which the assistant reads and can act on, carrying the REST status and `detail` unchanged.
 */
export function toolResult(response: RestResponse): CallToolResult {
  if (response.status < 400) {
    const structured = isObject(response.body) ? { structuredContent: response.body } : {};
    return { content: [{ type: 'text', text: JSON.stringify(response.body) }], ...structured };
  }
  const detail = isObject(response.body) && 'detail' in response.body ? response.body.detail : response.body;
  return {
    isError: true,
    content: [{ type: 'text', text: `faithscreen API answered ${response.status}: ${detailText(detail)}` }],
    structuredContent: { status: response.status, detail },
  };
}

/** Bounds the text of an answer that is not the API's (a proxy's whole error page). */
const DETAIL_TEXT_MAX = 2_000;

/** A `detail` as one line: its text, or a structured detail's message followed by the rest as JSON. */
function detailText(detail: unknown): string {
  const text = fullDetailText(detail);
  return text.length > DETAIL_TEXT_MAX ? `${text.slice(0, DETAIL_TEXT_MAX)}…` : text;
}

function fullDetailText(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (isObject(detail) && typeof detail.message === 'string') {
    const { message, ...rest } = detail;
    return Object.keys(rest).length > 0 ? `${message} ${JSON.stringify(rest)}` : message;
  }
  return JSON.stringify(detail);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
