/**
 * What the UI sees of a "try it" call: its result's content, its progress and
 * the input requests it waits on (elicitation answered in the UI).
 */
import type { SandboxBlock } from './health.js';
/** A content block of a tool, prompt or resource result, as far as the UI renders it. */
export type ContentView =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: string; [key: string]: unknown };

/** What a "try it" action returned. */
export interface TryResult {
  isError: boolean;
  content: ContentView[];
  structuredContent?: unknown;
  durationMs: number;
  /** The call was cancelled from the UI (the server was sent `notifications/cancelled`). */
  cancelled?: boolean;
  /** What happened along the way that the result alone does not say (e.g. a sampling request declined). */
  notes?: string[];
  /** A failed call during which the server's sandbox refused something: the server, and what (each with its Allow). */
  sandbox?: { server: string; blocked: SandboxBlock[]; home?: string };
}

/** The latest progress of a "try it" call (from the server's `notifications/progress`). */
export interface TryProgressView {
  callId: string;
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A server's `elicitation/create` during a "try it" call, waiting for the
 * person at the UI (MCP 2025-11-25, client/elicitation): form mode carries a
 * flat `requestedSchema`; URL mode a URL to open outside the UI.
 */
export interface TryInputView {
  id: string;
  /** The call it belongs to. */
  callId: string;
  mode: 'form' | 'url';
  message: string;
  requestedSchema?: Record<string, unknown>;
  url?: string;
}

/** The person's answer to an elicitation (its `action`, and `content` when accepted in form mode). */
export interface TryInputAnswer {
  id: string;
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, unknown>;
}
