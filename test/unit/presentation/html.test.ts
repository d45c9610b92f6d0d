/** What a person's browser is handed: escaping of every interpolated value, and the form-action sources of the CSP. */
import { escapeHtml, formTarget, html, Html } from '../../../lambdas/presentation/html';

describe('html escaping', () => {
  it('escapes the five HTML-significant characters in every interpolated value', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
    const name = '"><img src=x onerror=alert(1)>';
    expect(html`<input value="${name}">`.value).toBe('<input value="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;">');
  });

  it('inserts nested Html as is, arrays joined, and nothing for undefined or false', () => {
    expect(html`<ul>${['a<', 'b'].map((x) => html`<li>${x}</li>`)}</ul>${undefined}${false}`.value).toBe(
      '<ul><li>a&lt;</li><li>b</li></ul>',
    );
    expect(html`${new Html('<b>')}`.value).toBe('<b>');
  });
});

describe('form-action sources', () => {
  it('allow the redirect origin, or the scheme of a private-use redirect URI (RFC 8252 7.1)', () => {
    expect(formTarget('https://app.example/cb?x=1')).toBe('https://app.example');
    expect(formTarget('http://127.0.0.1:8765/cb')).toBe('http://127.0.0.1:8765');
    expect(formTarget('com.example.app:/cb')).toBe('com.example.app:');
  });
});
