import { describe, expect, it, vi } from 'vitest';
import {
  checkTemplate,
  checkTemplateWork,
  DEFAULT_TEMPLATES,
  renderTemplate,
  type TemplateContext,
} from './templates.ts';

const context = (first: string): TemplateContext => ({
  traveller: { title: 'Ms', first_name: first, last_name: 'Walker', preferred_name: null },
  booking: { ref: 'TD-ABC123' },
  trip: { name: 'Kilimanjaro <Summit> Trek', departure: '01 Jun 2031' },
  invoice: {
    ref: 'INV-1001',
    total: '£2,000.00',
    outstanding: '£1,700.00',
    due_date: '06 Apr 2031',
    days_until_due: 7,
    days_overdue: 0,
  },
  operator: { name: 'Tripdesk & Co' },
});

describe('email templates', () => {
  it('fill in the placeholders after a pause of the machine in the middle of a render', async () => {
    // one reading of the clock a second later, as when the machine stalls mid-render: the render
    // is tried again, and the email is still made even though the machine stalls again (by a
    // fifth of a second) while it is tried
    const now = performance.now.bind(performance);
    let reads = 0;
    const clock = vi
      .spyOn(performance, 'now')
      .mockImplementation(() => now() + (++reads === 3 ? 1000 : reads >= 5 ? 200 : 0));
    try {
      const mail = await renderTemplate(DEFAULT_TEMPLATES.reminder_before, context('Ada'));
      expect(reads).toBeGreaterThan(3);
      expect(mail.text).toContain('Dear Ada,');
    } finally {
      clock.mockRestore();
    }
  });

  it('fill in the placeholders', async () => {
    const mail = await renderTemplate(DEFAULT_TEMPLATES.reminder_before, context('Ada'));
    expect(mail.subject).toBe('Payment reminder: INV-1001 for Kilimanjaro <Summit> Trek is due on 06 Apr 2031');
    expect(mail.text).toContain(
      'Dear Ada,\n\nThis is a friendly reminder that £1,700.00 for Kilimanjaro <Summit> Trek',
    );
    expect(mail.html).toContain('<p>Dear Ada,</p>');
    expect(mail.html).toContain('Kilimanjaro &lt;Summit&gt; Trek');
    expect(mail.html).toContain('Tripdesk &amp; Co');
  });

  it('keep a traveller named <script> as text, and the staff’s own markup too', async () => {
    const mail = await renderTemplate(
      {
        subject: 'Hi {{ traveller.first_name }}',
        body: '<b>Hello</b> {{ traveller.first_name }}\n{% if invoice.days_overdue > 0 %}late{% endif %}',
      },
      context('<script>alert(1)</script>'),
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.html).toContain('&lt;b&gt;Hello&lt;/b&gt;');
    expect(mail.html).not.toContain('late');
  });

  it('run no code and read no files', async () => {
    const attempts = [
      '{{ constructor.constructor("return process")() }}',
      '{% include "/etc/passwd" %}',
      '{% render "x" %}',
      '{{ traveller.__proto__ }}',
      '{{ "x" | evil }}',
    ];
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
    expect(() => checkTemplate({ subject: 'ok', body: 'Dear {{ traveller.first_name ' })).toThrow(
      /The body cannot be read/,
    );
    expect(() => checkTemplate({ subject: '{% if %}', body: 'ok' })).toThrow(/The subject cannot be read/);
  });

  it('refuse every way around the escaping, and leave the engines without one', async () => {
    const attempts = [
      '{{ traveller.first_name | raw }}',
      '{{ traveller.first_name |raw}}',
      '{{ traveller.first_name | upcase | raw }}',
      '{% echo traveller.first_name | raw %}',
      '{% liquid\necho traveller.first_name | raw\n%}',
      '{% raw %}{{ "<script>" }}{% endraw %}',
      '{%- raw -%}<b>{%- endraw -%}',
      '{% liquid\nraw\n%}',
    ];
    for (const body of attempts) {
      expect(() => checkTemplate({ subject: 's', body }), body).toThrow(/printed as text: remove “raw” from the body/);
      // stored some other way, still no unescaped value in the HTML part
      let html: string;
      try {
        html = (await renderTemplate({ subject: 's', body }, context('<script>'))).html;
      } catch {
        html = 'refused';
      }
      expect(html, body).not.toContain('<script>');
      expect(html, body).not.toContain('<b>');
    }
    expect(() => checkTemplate({ subject: '{{ trip.name | raw }}', body: 'ok' })).toThrow(/from the subject/);
    // the word itself is fine
    expect(() =>
      checkTemplate({
        subject: 'Raw food on the trek',
        body: 'The draw is {{ trip.name }}: rawness\nraw eggs are on the menu',
      }),
    ).not.toThrow();
  });

  it('refuse a template that does too much work, and take the default ones', async () => {
    const heavy = '{% for a in (1..1000) %}{% for b in (1..1000) %}{{ traveller.first_name }}{% endfor %}{% endfor %}';
    const started = performance.now();
    await expect(checkTemplateWork({ subject: 's', body: heavy })).rejects.toMatchObject({
      errors: { body: ['This template does too much work.'] },
    });
    // the render was stopped at its limit, not run to its end (a million values)
    expect(performance.now() - started).toBeLessThan(2_000);
    await expect(renderTemplate({ subject: 's', body: heavy }, context('Ada'))).rejects.toThrow(/limit exceeded/);
    for (const t of Object.values(DEFAULT_TEMPLATES)) await expect(checkTemplateWork(t)).resolves.toBeUndefined();
  });
});
