/**
 * The languages request samples come in (samples.ts generates them): the names docs.json's
 * `api.examples.languages` and `x-codeSamples` use, and the generator's target for each.
 */

/** A language as docs.json's `api.examples.languages` names it, with the generator's target. */
export interface Language {
  title: string;
  /** highlight.js's name, for the code block. */
  lang: string;
  target: string;
  client: string;
}

export const LANGUAGES: Record<string, Language> = {
  curl: { title: 'cURL', lang: 'bash', target: 'shell', client: 'curl' },
  python: { title: 'Python', lang: 'python', target: 'python', client: 'requests' },
  javascript: { title: 'JavaScript', lang: 'javascript', target: 'javascript', client: 'fetch' },
  node: { title: 'Node.js', lang: 'javascript', target: 'node', client: 'fetch' },
  php: { title: 'PHP', lang: 'php', target: 'php', client: 'guzzle' },
  go: { title: 'Go', lang: 'go', target: 'go', client: 'native' },
  java: { title: 'Java', lang: 'java', target: 'java', client: 'okhttp' },
  ruby: { title: 'Ruby', lang: 'ruby', target: 'ruby', client: 'native' },
  csharp: { title: 'C#', lang: 'csharp', target: 'csharp', client: 'httpclient' },
  swift: { title: 'Swift', lang: 'swift', target: 'swift', client: 'urlsession' },
  kotlin: { title: 'Kotlin', lang: 'kotlin', target: 'kotlin', client: 'okhttp' },
  powershell: { title: 'PowerShell', lang: 'powershell', target: 'powershell', client: 'restmethod' },
};

/** The names authors write for them (docs.json and `x-codeSamples`' `lang`). */
const ALIASES: Record<string, string> = {
  bash: 'curl',
  shell: 'curl',
  sh: 'curl',
  'c#': 'csharp',
  cs: 'csharp',
  js: 'javascript',
  'node.js': 'node',
  nodejs: 'node',
  py: 'python',
  golang: 'go',
  rb: 'ruby',
  ps1: 'powershell',
};

/** The platform's default languages. */
export const DEFAULT_SAMPLE_LANGUAGES = ['curl', 'python', 'javascript', 'php', 'go', 'java', 'ruby'];

/** A language name as written → the key of LANGUAGES, or undefined when no generator has it. */
export function sampleLanguage(name: string): string | undefined {
  const key = name.trim().toLowerCase();
  const known = ALIASES[key] ?? key;
  return LANGUAGES[known] ? known : undefined;
}
