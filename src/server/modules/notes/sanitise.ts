import sanitizeHtml from 'sanitize-html';

/**
 * The allow-list for booking notes: the formatting the editor offers and nothing else. No
 * scripts, no event handlers, no styles (so nothing can be hidden), links only to web and
 * mail addresses, opened safely in a new tab.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'h2',
    'h3',
    'a',
    'hr',
  ],
  allowedAttributes: { a: ['href', 'target', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  // the text of a dropped <script> or <style> is dropped with it, never shown as text
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed'],
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        target: '_blank',
        rel: 'noopener noreferrer nofollow',
      },
    }),
  },
};

export const sanitiseNote = (html: string): string => sanitizeHtml(html, OPTIONS).trim();

/** A note of only empty paragraphs and spaces says nothing. */
export const isBlank = (html: string): boolean =>
  sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).replace(/&nbsp;|\s/g, '') === '';
