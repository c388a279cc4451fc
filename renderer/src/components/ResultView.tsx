/**
 * What a tool call, prompt or resource read returned: text, JSON (pretty),
 * images and audio from data URLs, embedded resources and links.
 */
import type { ContentView, TryResult } from '../../../shared/model/views.js';
import { Badge } from './HealthBadge.js';

/** Pretty JSON when `text` parses as JSON, else undefined. */
export function prettyJson(text: string): string | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return undefined;
  }
}

function TextBlock({ text }: { text: string }) {
  const json = prettyJson(text);
  return json ? <pre aria-label="JSON result">{json}</pre> : <pre aria-label="Text result">{text}</pre>;
}

function ContentBlock({ block }: { block: ContentView }) {
  if (block.type === 'text' && typeof block['text'] === 'string') return <TextBlock text={block['text']} />;
  if ((block.type === 'image' || block.type === 'audio') && typeof block['data'] === 'string') {
    const src = `data:${String(block['mimeType'])};base64,${block['data']}`;
    return block.type === 'image' ? <img src={src} alt="Image result" /> : <audio controls src={src} />;
  }
  if (block.type === 'resource' && typeof block['resource'] === 'object' && block['resource'] !== null) {
    const resource = block['resource'] as { uri: string; mimeType?: string; text?: string; blob?: string };
    return (
      <div>
        <div className="small muted mono">{resource.uri}</div>
        {resource.text !== undefined ? (
          <TextBlock text={resource.text} />
        ) : resource.blob && resource.mimeType?.startsWith('image/') ? (
          <img src={`data:${resource.mimeType};base64,${resource.blob}`} alt={resource.uri} />
        ) : (
          <span className="muted">binary ({resource.mimeType ?? 'unknown type'})</span>
        )}
      </div>
    );
  }
  if (block.type === 'resource_link') return <div className="mono">🔗 {String(block['uri'])}</div>;
  return <pre>{JSON.stringify(block, null, 2)}</pre>;
}

/** Renders a TryResult. */
export function ResultView({ result }: { result: TryResult }) {
  return (
    <div className="result" role="region" aria-label="Result">
      <div className="row">
        <Badge tone={result.isError ? 'bad' : 'ok'}>{result.isError ? '✕ Error' : '✓ OK'}</Badge>
        <span className="small muted">{Math.round(result.durationMs)} ms</span>
      </div>
      {result.content.map((block, index) => (
        <ContentBlock key={index} block={block} />
      ))}
      {result.structuredContent !== undefined && (
        <details>
          <summary>Structured content</summary>
          <pre>{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </details>
      )}
    </div>
  );
}
