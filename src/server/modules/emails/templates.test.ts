import { describe, expect, it } from 'vitest';
import { checkTemplate, DEFAULT_TEMPLATES, renderTemplate, type TemplateContext } from './templates.ts';

const context = (first: string): TemplateContext => ({
  traveller: { title: 'Ms', first_name: first, last_name: 'Walker', preferred_name: null },
  booking: { ref: 'TD-ABC123' },
  trip: { name: 'Kilimanjaro <Summit> Trek', departure: '01 Jun 2031' },
  invoice: { ref: 'INV-1001', total: '£2,000.00', outstanding: '£1,700.00', due_date: '06 Apr 2031', days_until_due: 7, days_overdue: 0 },
  operator: { name: 'Tripdesk & Co' },
});

describe('email templates', () => {
  it('fill in the placeholders', async () => {
    const mail = await renderTemplate(DEFAULT_TEMPLATES.reminder_before, context('Ada'));
    expect(mail.subject).toBe('Payment reminder: INV-1001 for Kilimanjaro <Summit> Trek is due on 06 Apr 2031');
    expect(mail.text).toContain('Dear Ada,\n\nThis is a friendly reminder that £1,700.00 for Kilimanjaro <Summit> Trek');
    expect(mail.html).toContain('<p>Dear Ada,</p>');
    expect(mail.html).toContain('Kilimanjaro &lt;Summit&gt; Trek');
    expect(mail.html).toContain('Tripdesk &amp; Co');
  });

  it('keep a traveller named <script> as text, and the staff’s own markup too', async () => {
    const mail = await renderTemplate({ subject: 'Hi {{ traveller.first_name }}', body: '<b>Hello</b> {{ traveller.first_name }}\n{% if invoice.days_overdue > 0 %}late{% endif %}' }, context('<script>alert(1)</script>'));
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;b&gt;Hello&lt;/b&gt;');
    expect(mail.html).not.toContain('late');
  });

  it('run no code and read no files', async () => {
    const attempts = ['{{ constructor.constructor("return process")() }}', '{% include "/etc/passwd" %}', '{% render "x" %}', '{{ traveller.__proto__ }}', '{{ "x" | evil }}'];
    for (const body of attempts) {
      let out: string;
      try {
        checkTemplate({ subject: 's', body });
        out = (await renderTemplate({ subject: 's', body }, context('Ada'))).text;
      } catch {
        out = 'refused';
      }
      expect(out, body).not.toMatch(/process|root:|function/);
    }
  });

  it('refuse a template that does not parse, naming the field', () => {
    expect(() => checkTemplate({ subject: 'ok', body: 'Dear {{ traveller.first_name ' })).toThrow(/The body cannot be read/);
    expect(() => checkTemplate({ subject: '{% if %}', body: 'ok' })).toThrow(/The subject cannot be read/);
  });
});
