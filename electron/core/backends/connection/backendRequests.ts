/**
 * The typed requests one backend answers, over its SDK client: everything the
 * core asks a backend goes through these, so what the SDK needs to be told
 * (validator passthrough, cache modes, header mirroring, capabilities) is said
 * here once and nowhere else. The queue, the deadline and the connection's
 * life are BackendConnection's (which extends this class); each operation here
 * is one request, made inside a queued task with that task's signal and timeout.
 *
 * Task-augmented calls (MCP 2025-11-25 "tasks") are operations beside these:
 * `callToolAsTask` and `taskRequest` (used by core/tasks).
 */
import { CLIENT_CAPABILITIES_META_KEY } from '@modelcontextprotocol/client';
import type {
  ClientCapabilities,
  CallToolRequestParams,
  CallToolResult,
  CancelTaskResult,
  Client,
  CreateTaskResult,
  GetTaskResult,
  CompleteRequestParams,
  CompleteResult,
  GetPromptRequestParams,
  GetPromptResult,
  InputRequiredResult,
  Progress,
  Prompt,
  ReadResourceRequestParams,
  ReadResourceResult,
  Resource,
  ResourceTemplateType,
  ServerCapabilities,
  Tool,
} from '@modelcontextprotocol/client';
import { SKILLS_EXTENSION_ID, SkillsClient, type Skill } from '@modelcontextprotocol/client/ext/skills';
import { paramHeadersOf, paramHeaderValues } from '../transport/paramHeaders.js';
import type { PlainRelay } from './plainRelay.js';

/** Everything a backend offers, every page of every list. */
export interface BackendCatalog {
  tools: Tool[];
  resources: Resource[];
  resourceTemplates: ResourceTemplateType[];
  prompts: Prompt[];
  /**
   * Its skills (SEP-2640, `io.modelcontextprotocol/skills`), every page;
   * absent when it does not declare the extension. Entries the SDK finds
   * invalid are left out.
   */
  skills?: Skill[];
  /**
   * The text of each listed skill file, by the backend's own URI, read and
   * verified against its entry's digest when listed, for the poisoning scan
   * (catalog/scan): files up to SKILL_TEXT_LIMITS, the rest left unread.
   */
  skillFiles?: Record<string, string>;
  /** Whether it serves `resources/directory/read` on its skill folders (the extension's `directoryRead`). */
  skillsDirectoryRead?: boolean;
}

/** How much skill text one listing reads for the scan: per file, and in all. */
export const SKILL_TEXT_LIMITS = { fileBytes: 256 * 1024, totalBytes: 2 * 1024 * 1024 };

/** At most this many skills are taken from one backend (memory stays bounded whatever it lists). */
export const MAX_BACKEND_SKILLS = 1000;

/** How one backend request is made (from the queued task that carries it). */
export interface BackendRequestOptions {
  signal: AbortSignal;
  /** The SDK's own timeout (our queue deadline fires first; see RequestQueue). */
  timeout: number;
  onprogress?: (progress: Progress) => void;
  /** Return an `InputRequiredResult` instead of fulfilling it (2026-07-28 backends). */
  allowInputRequired?: boolean;
}

/** A tools/call to make: the backend's own tool name, and its definition as listed. */
export interface ToolCallOptions extends BackendRequestOptions {
  /** The tool as the backend listed it; needed for `x-mcp-header` mirroring (SEP-2243). */
  tool?: Tool | undefined;
}

/**
 * Accepts any result: the frontend's own SDK validates what we relay (against
 * the outputSchema we advertise), so checking it here too only costs time
 * (~0.2 ms per call). Also sidesteps SDK 2.4.0 checking an input_required
 * answer against a cached outputSchema.
 */
const PASSTHROUGH = {
  '~standard': { version: 1 as const, vendor: 'mcp-switchboard', validate: (value: unknown) => ({ value }) },
};

/** The 2026-07-28 tasks extension's id (SEP-2663). */
export const TASKS_EXTENSION_ID = 'io.modelcontextprotocol/tasks';

/** Client capabilities with the tasks extension declared. */
function withTasks(capabilities: ClientCapabilities): ClientCapabilities {
  const extensions = (capabilities as { extensions?: Record<string, unknown> }).extensions;
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION_ID]: {} } } as ClientCapabilities;
}

/** Tools whose schema declares `x-mcp-header` (SEP-2243), found once per tool definition. */
const headerMirroring = new WeakMap<Tool, boolean>();

/**
 * Whether calls to this tool must go through the SDK's callTool, which mirrors
 * `x-mcp-header` parameters into `Mcp-Param-*` headers for 2026-07-28 backends.
 */
function mirrorsHeaders(tool: Tool | undefined): tool is Tool {
  if (!tool) return false;
  let mirrors = headerMirroring.get(tool);
  if (mirrors === undefined) {
    mirrors = JSON.stringify(tool.inputSchema).includes('"x-mcp-header"');
    headerMirroring.set(tool, mirrors);
  }
  return mirrors;
}

/** The requests a backend answers; see the module comment. */
export class BackendRequests {
  /** The relay of a plain call past the SDK client's request machinery, once connected (plainRelay.ts). */
  protected relay: PlainRelay | undefined;

  constructor(protected readonly client: Client) {}

  /** What the backend declared at the handshake (undefined before it). */
  get capabilities(): ServerCapabilities | undefined {
    return this.client.getServerCapabilities();
  }

  /**
   * tools/call under the backend's own name. The result is relayed unchecked
   * (see PASSTHROUGH), except for a tool mirroring headers, which needs the
   * SDK's callTool with the tool's definition. A plain call to a 2026-07-28
   * backend (no progress asked for, input_required taken as it is) goes past
   * the SDK client's request machinery (plainRelay.ts).
   */
  callTool(params: CallToolRequestParams, options: ToolCallOptions): Promise<CallToolResult | InputRequiredResult> {
    const { tool, ...requestOptions } = options;
    const { relay } = this;
    if (relay?.takes(requestOptions.onprogress) && requestOptions.allowInputRequired === true && !mirrorsHeaders(tool))
      return relay.call(params, requestOptions);
    if (mirrorsHeaders(tool)) {
      const definition = { name: params.name, inputSchema: tool.inputSchema };
      return this.client.callTool(params, { ...requestOptions, toolDefinition: definition });
    }
    return this.client.request({ method: 'tools/call', params }, PASSTHROUGH, requestOptions) as Promise<
      CallToolResult | InputRequiredResult
    >;
  }

  /**
   * tools/call as a task (MCP 2025-11-25 tasks): `params.task` asks the
   * backend for a task, and it answers a `CreateTaskResult` (the SDK's
   * tools/call result schema would refuse it, hence PASSTHROUGH).
   */
  callToolAsTask(
    params: CallToolRequestParams,
    task: { ttl?: number },
    options: BackendRequestOptions,
  ): Promise<CreateTaskResult> {
    return this.client.request(
      { method: 'tools/call', params: { ...params, task } },
      PASSTHROUGH,
      options,
    ) as Promise<CreateTaskResult>;
  }

  /** One of the backend's task methods (`tasks/get`, `tasks/result`, `tasks/cancel`) for its own task id. */
  taskRequest<R extends GetTaskResult | CallToolResult | CancelTaskResult>(
    method: 'tasks/get' | 'tasks/result' | 'tasks/cancel',
    taskId: string,
    options: BackendRequestOptions,
  ): Promise<R> {
    return this.client.request({ method, params: { taskId } }, PASSTHROUGH, options) as Promise<R>;
  }

  /**
   * tools/call to a 2026-07-28 backend, declaring the io.modelcontextprotocol/tasks
   * extension in this request's client capabilities (spec: a server MAY answer
   * with a task only a request that declared it). The backend decides per
   * request: a task (its CreateTaskResult lifted past the SDK, see
   * taskResultLift.ts), a plain result, or input_required. Being a raw
   * request, it carries the tool's `Mcp-Param-*` headers itself (SEP-2243).
   */
  callToolDeclaringTasks(
    params: CallToolRequestParams,
    capabilities: ClientCapabilities,
    options: ToolCallOptions,
  ): Promise<CallToolResult | InputRequiredResult> {
    const { tool, ...requestOptions } = options;
    const declared = { ...params, _meta: { ...params._meta, [CLIENT_CAPABILITIES_META_KEY]: withTasks(capabilities) } };
    const headers = mirrorsHeaders(tool) ? paramHeaderValues(paramHeadersOf(tool.inputSchema), params.arguments) : {};
    return this.client.request({ method: 'tools/call', params: declared }, PASSTHROUGH, {
      ...requestOptions,
      ...(Object.keys(headers).length > 0 && { headers }),
      allowInputRequired: true,
    }) as Promise<CallToolResult | InputRequiredResult>;
  }

  /**
   * A 2026-07-28 task method for the backend's own task, declaring the
   * extension (else -32021) and naming the task in `Mcp-Name` (SEP-2663: the
   * server refuses a missing or different one).
   */
  modernTaskRequest<R>(
    method: 'tasks/get' | 'tasks/update' | 'tasks/cancel',
    params: { taskId: string; inputResponses?: Record<string, unknown> },
    capabilities: ClientCapabilities,
    options: BackendRequestOptions,
  ): Promise<R> {
    const declared = { ...params, _meta: { [CLIENT_CAPABILITIES_META_KEY]: withTasks(capabilities) } };
    return this.client.request({ method, params: declared }, PASSTHROUGH, {
      ...options,
      headers: { 'Mcp-Name': params.taskId },
    }) as Promise<R>;
  }

  /** prompts/get under the backend's own name. */
  getPrompt(params: GetPromptRequestParams, options: BackendRequestOptions): Promise<GetPromptResult> {
    return this.client.getPrompt(params, options);
  }

  /** resources/read under the backend's own URI; never from the SDK's cache (the backend decides freshness). */
  readResource(params: ReadResourceRequestParams, options: BackendRequestOptions): Promise<ReadResourceResult> {
    return this.client.readResource(params, { ...options, cacheMode: 'bypass' });
  }

  /** Whether the backend declared the skills extension, and whether it serves `resources/directory/read`. */
  get skillsCapability(): { directoryRead?: boolean } | undefined {
    const extensions = (this.capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
    const entry = extensions?.[SKILLS_EXTENSION_ID];
    return typeof entry === 'object' && entry !== null ? entry : undefined;
  }

  /** skills/get under the backend's own SKILL.md URI: its entry, checked by the SDK. */
  async getSkill(uri: string, options: BackendRequestOptions): Promise<Skill> {
    return (await new SkillsClient(this.client).get(uri, options)).skill;
  }

  /** resources/directory/read of one of the backend's skill folders (every page). */
  readSkillDirectory(uri: string, options: BackendRequestOptions) {
    return new SkillsClient(this.client).readDirectory(uri, options);
  }

  /** completion/complete (ask only a backend whose `capabilities` include completions). */
  complete(params: CompleteRequestParams, options: BackendRequestOptions): Promise<CompleteResult> {
    return this.client.complete(params, options);
  }

  /**
   * A liveness check: ping, or on a 2026-07-28 connection (no ping outside a
   * session) a tools/list past the cache.
   */
  async probe(options: BackendRequestOptions): Promise<void> {
    if (this.client.getProtocolEra() === 'modern') {
      await this.client.listTools(undefined, { ...options, cacheMode: 'bypass' });
    } else {
      await this.client.ping(options);
    }
  }

  /** Every page of every list the backend advertises, past the SDK's cache. */
  async listAll(options: BackendRequestOptions): Promise<BackendCatalog> {
    const capabilities = this.capabilities ?? {};
    const common = { ...options, cacheMode: 'bypass' as const };
    const [tools, resources, resourceTemplates, prompts, skills] = await Promise.all([
      capabilities.tools ? this.client.listTools(undefined, common).then((r) => r.tools) : [],
      capabilities.resources ? this.client.listResources(undefined, common).then((r) => r.resources) : [],
      capabilities.resources
        ? this.client.listResourceTemplates(undefined, common).then((r) => r.resourceTemplates)
        : [],
      capabilities.prompts ? this.client.listPrompts(undefined, common).then((r) => r.prompts) : [],
      this.skillsCapability
        ? new SkillsClient(this.client, { skipInvalid: true })
            .list(undefined, common)
            .then((r) => r.skills.slice(0, MAX_BACKEND_SKILLS))
        : undefined,
    ]);
    const skillFiles = skills && (await this.readSkillTexts(skills, common));
    const skillsDirectoryRead = this.skillsCapability?.directoryRead === true;
    return {
      tools,
      resources,
      resourceTemplates,
      prompts,
      ...(skills && { skills, skillFiles, ...(skillsDirectoryRead && { skillsDirectoryRead }) }),
    };
  }

  /**
   * The text of every listed file of `skills` within SKILL_TEXT_LIMITS, each
   * checked by the SDK against its entry (size, digest, SKILL.md's
   * frontmatter); a file that fails the check, or is not text, is left out.
   */
  private async readSkillTexts(skills: Skill[], options: BackendRequestOptions): Promise<Record<string, string>> {
    const reader = new SkillsClient(this.client);
    const texts: Record<string, string> = {};
    let budget = SKILL_TEXT_LIMITS.totalBytes;
    for (const skill of skills) {
      if (!Array.isArray(skill.resources)) continue;
      for (const file of skill.resources) {
        if (file.size > SKILL_TEXT_LIMITS.fileBytes || file.size > budget) continue;
        budget -= file.size;
        const read = await reader.read(skill, file.uri, options).catch(() => undefined);
        if (read?.text !== undefined) texts[file.uri] = read.text;
      }
    }
    return texts;
  }
}
