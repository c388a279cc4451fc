/**
 * The server.json JSON Schema of the official MCP Registry, as published in
 * modelcontextprotocol/registry, docs/reference/server-json/server.schema.json
 * (commit 7c0bbf25bcdf794c4622afbf1b72b99d0281ca6b, generated there from
 * docs/reference/api/openapi.yaml), with the transport definitions of the
 * later openapi.yaml (commit 145c2ec7c424d503a553a50c0efac6c48db407db: URL
 * templates such as `https://{host}/mcp`, remote `variables`), which the
 * registry's 2025-12-11 examples use. Structure, types, patterns, enums, limits
 * and `required` lists are the official ones; the long `description` texts
 * are left out (they carry no validation). Documents validate against this
 * before Switchboard shows or installs them (see validate.ts).
 */
export const SERVER_SCHEMA_SOURCE =
  'modelcontextprotocol/registry@7c0bbf25bcdf794c4622afbf1b72b99d0281ca6b:docs/reference/server-json/server.schema.json';

/** A transport URL: http(s), or starting with a `{variable}` (openapi.yaml). */
const URL_TEMPLATE = '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$';

const input = {
  properties: {
    choices: { items: { type: 'string' }, type: 'array' },
    default: { type: 'string' },
    description: { type: 'string' },
    format: { default: 'string', enum: ['string', 'number', 'boolean', 'filepath'], type: 'string' },
    isRequired: { default: false, type: 'boolean' },
    isSecret: { default: false, type: 'boolean' },
    placeholder: { type: 'string' },
    value: { type: 'string' },
  },
  type: 'object',
};

/** The official server.json schema (draft-07). */
export const SERVER_SCHEMA = {
  $id: 'https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json',
  $ref: '#/definitions/ServerDetail',
  $schema: 'http://json-schema.org/draft-07/schema#',
  definitions: {
    Argument: { anyOf: [{ $ref: '#/definitions/PositionalArgument' }, { $ref: '#/definitions/NamedArgument' }] },
    BinaryPackage: {
      allOf: [
        { $ref: '#/definitions/PackageBase' },
        {
          properties: {
            fileSha256: { pattern: '^[a-f0-9]{64}$', type: 'string' },
            identifier: { format: 'uri', minLength: 1, type: 'string' },
            registryType: { const: 'mcpb', type: 'string' },
          },
          required: ['identifier', 'fileSha256'],
          type: 'object',
        },
      ],
    },
    Icon: {
      properties: {
        mimeType: {
          enum: ['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp'],
          type: 'string',
        },
        sizes: { items: { pattern: '^(\\d+x\\d+|any)$', type: 'string' }, type: 'array' },
        src: { format: 'uri', maxLength: 255, type: 'string' },
        theme: { enum: ['light', 'dark'], type: 'string' },
      },
      required: ['src'],
      type: 'object',
    },
    ImagePackage: {
      allOf: [
        { $ref: '#/definitions/PackageBase' },
        {
          properties: {
            identifier: { minLength: 1, type: 'string' },
            registryType: { const: 'oci', type: 'string' },
          },
          required: ['identifier'],
          type: 'object',
        },
      ],
    },
    Input: input,
    InputWithVariables: {
      allOf: [
        { $ref: '#/definitions/Input' },
        {
          properties: { variables: { additionalProperties: { $ref: '#/definitions/Input' }, type: 'object' } },
          type: 'object',
        },
      ],
    },
    KeyValueInput: {
      allOf: [
        { $ref: '#/definitions/InputWithVariables' },
        { properties: { name: { type: 'string' } }, required: ['name'], type: 'object' },
      ],
    },
    NamedArgument: {
      allOf: [
        { $ref: '#/definitions/InputWithVariables' },
        {
          properties: {
            isRepeated: { default: false, type: 'boolean' },
            name: { type: 'string' },
            type: { enum: ['named'], type: 'string' },
          },
          required: ['type', 'name'],
          type: 'object',
        },
      ],
    },
    Package: {
      oneOf: [
        { $ref: '#/definitions/RegistryPackage' },
        { $ref: '#/definitions/ImagePackage' },
        { $ref: '#/definitions/BinaryPackage' },
      ],
    },
    PackageBase: {
      properties: {
        environmentVariables: { items: { $ref: '#/definitions/KeyValueInput' }, type: 'array' },
        packageArguments: { items: { $ref: '#/definitions/Argument' }, type: 'array' },
        registryType: { enum: ['npm', 'pypi', 'nuget', 'oci', 'mcpb'], type: 'string' },
        runtimeArguments: { items: { $ref: '#/definitions/Argument' }, type: 'array' },
        runtimeHint: { type: 'string' },
        transport: {
          anyOf: [
            { $ref: '#/definitions/StdioTransport' },
            { $ref: '#/definitions/StreamableHttpTransport' },
            { $ref: '#/definitions/SseTransport' },
          ],
        },
      },
      required: ['registryType', 'transport'],
      type: 'object',
    },
    PositionalArgument: {
      allOf: [
        { $ref: '#/definitions/InputWithVariables' },
        {
          anyOf: [{ required: ['valueHint'] }, { required: ['value'] }],
          properties: {
            isRepeated: { default: false, type: 'boolean' },
            type: { enum: ['positional'], type: 'string' },
            valueHint: { type: 'string' },
          },
          required: ['type'],
          type: 'object',
        },
      ],
    },
    RegistryPackage: {
      allOf: [
        { $ref: '#/definitions/PackageBase' },
        {
          properties: {
            identifier: { minLength: 1, type: 'string' },
            registryBaseUrl: { format: 'uri', type: 'string' },
            registryType: { enum: ['npm', 'pypi', 'nuget'], type: 'string' },
            version: { minLength: 1, not: { const: 'latest' }, type: 'string' },
          },
          required: ['identifier', 'version'],
          type: 'object',
        },
      ],
    },
    Repository: {
      properties: {
        id: { type: 'string' },
        source: { type: 'string' },
        subfolder: { type: 'string' },
        url: { format: 'uri', type: 'string' },
      },
      required: ['url', 'source'],
      type: 'object',
    },
    ServerDetail: {
      properties: {
        $schema: { format: 'uri', type: 'string' },
        _meta: {
          properties: {
            'io.modelcontextprotocol.registry/publisher-provided': { additionalProperties: true, type: 'object' },
          },
          type: 'object',
        },
        description: { maxLength: 100, minLength: 1, type: 'string' },
        icons: { items: { $ref: '#/definitions/Icon' }, type: 'array' },
        name: { maxLength: 200, minLength: 3, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$', type: 'string' },
        packages: { items: { $ref: '#/definitions/Package' }, type: 'array' },
        remotes: { items: { $ref: '#/definitions/RemoteTransport' }, type: 'array' },
        repository: { $ref: '#/definitions/Repository' },
        title: { maxLength: 100, minLength: 1, type: 'string' },
        version: { maxLength: 255, type: 'string' },
        websiteUrl: { format: 'uri', type: 'string' },
      },
      required: ['name', 'description', 'version'],
      type: 'object',
    },
    RemoteTransport: {
      allOf: [
        { anyOf: [{ $ref: '#/definitions/StreamableHttpTransport' }, { $ref: '#/definitions/SseTransport' }] },
        {
          properties: { variables: { additionalProperties: { $ref: '#/definitions/Input' }, type: 'object' } },
          type: 'object',
        },
      ],
    },
    SseTransport: {
      properties: {
        headers: { items: { $ref: '#/definitions/KeyValueInput' }, type: 'array' },
        type: { enum: ['sse'], type: 'string' },
        url: { pattern: URL_TEMPLATE, type: 'string' },
      },
      required: ['type', 'url'],
      type: 'object',
    },
    StdioTransport: {
      properties: { type: { enum: ['stdio'], type: 'string' } },
      required: ['type'],
      type: 'object',
    },
    StreamableHttpTransport: {
      properties: {
        headers: { items: { $ref: '#/definitions/KeyValueInput' }, type: 'array' },
        type: { enum: ['streamable-http'], type: 'string' },
        url: { pattern: URL_TEMPLATE, type: 'string' },
      },
      required: ['type', 'url'],
      type: 'object',
    },
  },
  title: 'server.json defining a Model Context Protocol (MCP) server',
} as const;
