/**
 * The answer of a prompt or resource offered as a tool: a tool result whose
 * content is the prompt's messages (prompts/get) or the resource's contents
 * (resources/read), so a client that only does tools gets what a prompt- or
 * resource-aware client would.
 */
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/client';

type Content = CallToolResult['content'][number];

/** A prompt's messages as tool content: text as text (with its role), other content as it is. */
export function promptAsToolResult(result: GetPromptResult): CallToolResult {
  const content: Content[] = result.messages.map((message) =>
    message.content.type === 'text'
      ? {
          type: 'text',
          text: result.messages.length > 1 ? `${message.role}: ${message.content.text}` : message.content.text,
        }
      : (message.content as Content),
  );
  return { content };
}

/** A resource's contents as tool content: text as text, binary as an embedded resource. */
export function readAsToolResult(result: ReadResourceResult): CallToolResult {
  const content: Content[] = result.contents.map((item) =>
    'text' in item && typeof item.text === 'string'
      ? { type: 'text', text: item.text }
      : { type: 'resource', resource: item },
  );
  return { content };
}

/** Prompt arguments are strings: a tool call's values as a prompt's arguments. */
export function promptArguments(args: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!args) return undefined;
  return Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}
