/**
 * What a tool call, prompt or resource read returned: text, JSON (pretty),
 * images at their natural size (click to zoom), playable audio, embedded
 * resources, and resource links that open the linked item.
 */
import { useState } from 'react';
import type { ContentView, TryResult } from '../../../shared/model/views.js';
import { Dialog } from './Dialog.js';
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

/** An image at its natural size (never wider than the panel); a click shows it enlarged. */
function ZoomableImage({ src, alt }: { src: string; alt: string }) {
  const [zoomed, setZoomed] = useState(false);
  return (
    <>
      <button type="button" className="image-button" aria-label={`Zoom ${alt}`} onClick={() => setZoomed(true)}>
        <img className="result-image" src={src} alt={alt} />
      </button>
      {zoomed && (
        <Dialog title={alt} onClose={() => setZoomed(false)} cancel>
          <img className="zoomed-image" src={src} alt={`${alt}, enlarged`} />
        </Dialog>
      )}
    </>
  );
}

function ResourceLink({
  block,
  onOpen,
}: {
  block: Record<string, unknown>;
  onOpen: ((uri: string) => boolean) | undefined;
}) {
  const uri = String(block['uri']);
  const name = typeof block['name'] === 'string' ? block['name'] : uri;
  const [missing, setMissing] = useState(false);
  return (
    <div className="row">
      <span aria-hidden="true">🔗</span>
      {onOpen ? (
        <button type="button" className="link" onClick={() => setMissing(!onOpen(uri))}>
          {name}
        </button>
      ) : (
        <span>{name}</span>
      )}
      <span className="small muted mono">{uri}</span>
      {missing && <span className="small">Not in the catalog.</span>}
    </div>
  );
}

function ContentBlock({
  block,
  onOpenLink,
}: {
  block: ContentView;
  onOpenLink?: ((uri: string) => boolean) | undefined;
}) {
  if (block.type === 'text' && typeof block['text'] === 'string') return <TextBlock text={block['text']} />;
  if ((block.type === 'image' || block.type === 'audio') && typeof block['data'] === 'string') {
    const src = `data:${String(block['mimeType'])};base64,${block['data']}`;
    return block.type === 'image' ? (
      <ZoomableImage src={src} alt="Image result" />
    ) : (
      <audio controls src={src} aria-label="Audio result" />
    );
  }
  if (block.type === 'resource' && typeof block['resource'] === 'object' && block['resource'] !== null) {
    const resource = block['resource'] as { uri: string; mimeType?: string; text?: string; blob?: string };
    return (
      <div>
        <div className="small muted mono">{resource.uri}</div>
        {resource.text !== undefined ? (
          <TextBlock text={resource.text} />
        ) : resource.blob && resource.mimeType?.startsWith('image/') ? (
          <ZoomableImage src={`data:${resource.mimeType};base64,${resource.blob}`} alt={resource.uri} />
        ) : resource.blob && resource.mimeType?.startsWith('audio/') ? (
          <audio controls src={`data:${resource.mimeType};base64,${resource.blob}`} aria-label={resource.uri} />
        ) : (
          <span className="muted">binary ({resource.mimeType ?? 'unknown type'})</span>
        )}
      </div>
    );
  }
  if (block.type === 'resource_link')
    return <ResourceLink block={block as Record<string, unknown>} onOpen={onOpenLink} />;
  return <pre>{JSON.stringify(block, null, 2)}</pre>;
}

/** Renders a TryResult; `onOpenLink` follows a resource link (false: nothing to open). */
export function ResultView({
  result,
  onOpenLink,
}: {
  result: TryResult;
  onOpenLink?: ((uri: string) => boolean) | undefined;
}) {
  return (
    <div className="result" role="region" aria-label="Result">
      <div className="row">
        {result.cancelled ? (
          <Badge tone="warn">Cancelled</Badge>
        ) : (
          <Badge tone={result.isError ? 'bad' : 'ok'}>{result.isError ? '✕ Error' : '✓ OK'}</Badge>
        )}
        <span className="small muted">{Math.round(result.durationMs)} ms</span>
      </div>
      {result.notes?.map((note) => (
        <div key={note} className="note tone-info" role="note">
          {note}
        </div>
      ))}
      {result.content.map((block, index) => (
        <ContentBlock key={index} block={block} onOpenLink={onOpenLink} />
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
