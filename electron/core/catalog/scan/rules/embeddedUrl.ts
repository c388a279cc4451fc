/**
 * URLs in a definition. Most are documentation links and stay low; a URL is
 * medium when it points at a bare IP address, a link shortener, a request
 * catcher or tunnel (webhook.site, ngrok, interactsh: where exfiltrated data
 * is collected), when it carries a placeholder for data in its query
 * (`?data={...}`), or when it is a `data:` URI. Orders to send data to a URL
 * are the exfiltration rule's.
 */
import type { ScanSeverity } from '../../../../../shared/model/scanViews.js';
import { namesPrivateData } from './directives.js';
import type { RuleHit, ScanRuleCheck } from './rule.js';
import { sentenceText } from './sentences.js';

const URL_PATTERN = /\b(?:(?:https?|wss?|ftp):\/\/[^\s"'`<>)\]]+|data:[\w/+.-]+;base64,[A-Za-z0-9+/=]{16,})/gi;

const LOCAL_HOST = /^(?:localhost|127\.\d+\.\d+\.\d+|\[?::1\]?|0\.0\.0\.0)$/i;
const IP_HOST = /^(?:\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:]+\])$/i;
const SHORTENERS = /(?:^|\.)(?:bit\.ly|tinyurl\.com|t\.co|goo\.gl|is\.gd|ow\.ly|cutt\.ly|rebrand\.ly|shorturl\.at)$/i;
const CATCHERS =
  /(?:^|\.)(?:webhook\.site|requestbin\.(?:com|net)|pipedream\.net|ngrok(?:-free)?\.(?:io|app|dev)|trycloudflare\.com|interact\.sh|oast\.(?:fun|me|pro|live|site|online)|burpcollaborator\.net|beeceptor\.com|hookbin\.com|requestcatcher\.com|localtunnel\.me|serveo\.net)$/i;
const DATA_PLACEHOLDER = /[?&][\w-]+=(?:\{[^}]*\}|\$\{[^}]*\}|<[^>]*>|%7B|[A-Z][A-Z_]{2,}(?=$|&)|(?=$|&))/;

/** A sentence that has the model build the URL from data: "followed by the answer", "replacing SUMMARY with ...". */
const BUILT =
  /\b(?:followed\s+by|append(?:ed|ing)?|replac(?:e|ing)|fill(?:ed)?\s+in|set\s+to|url-?encoded|base64\s+of|with\s+(?:the|your)\s+(?:answer|summary|question|reply))\b/i;

/** URLs, and those that point where data is collected. */
export const embeddedUrl: ScanRuleCheck = {
  rule: 'embedded-url',
  check(field) {
    const hits: RuleHit[] = [];
    for (const match of field.text.matchAll(URL_PATTERN)) {
      const url = trimTrailing(match[0]);
      const start = match.index ?? 0;
      const end = start + url.length;
      const image = /(?:!\[[^\]]*\]\(|<img\s[^>]*src=["']?)$/i.test(field.text.slice(Math.max(0, start - 80), start));
      const sentence = sentenceText(field.text, start, end);
      if ((image || DATA_PLACEHOLDER.test(url)) && (BUILT.test(sentence) || namesPrivateData(sentence))) {
        const what = image ? 'an image URL' : 'a URL';
        hits.push({
          severity: 'high',
          start,
          end,
          message: `${what} the model is to fill with the user's data: loading it sends them away`,
        });
        continue;
      }
      const { severity, why } = judge(url);
      hits.push({ severity, start, end, message: `a URL${why}` });
    }
    return hits;
  },
};

function judge(url: string): { severity: ScanSeverity; why: string } {
  if (/^data:/i.test(url)) return { severity: 'medium', why: ': a data: URI carrying encoded content' };
  const host = hostOf(url);
  if (host === undefined || LOCAL_HOST.test(host)) return { severity: 'low', why: '' };
  if (CATCHERS.test(host)) return { severity: 'medium', why: ` at ${host}, a request catcher or tunnel` };
  if (SHORTENERS.test(host))
    return { severity: 'medium', why: ` through ${host}, a link shortener that hides where it goes` };
  if (IP_HOST.test(host)) return { severity: 'medium', why: ` at a bare IP address (${host})` };
  if (DATA_PLACEHOLDER.test(url)) return { severity: 'medium', why: ' with a placeholder for data in its query' };
  return { severity: 'low', why: '' };
}

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

/** A URL without the punctuation that ends the sentence around it, or a closing brace it did not open. */
function trimTrailing(url: string): string {
  let trimmed = url.replace(/[.,;:!?]+$/, '');
  while (trimmed.endsWith('}') && (trimmed.match(/\{/g) ?? []).length < (trimmed.match(/\}/g) ?? []).length) {
    trimmed = trimmed.slice(0, -1).replace(/[.,;:!?]+$/, '');
  }
  return trimmed;
}
