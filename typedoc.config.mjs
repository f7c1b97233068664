// typedoc configuration for `pnpm run docs`: one site for every published package (each workspace
// package that is not private and has exports, found from pnpm-workspace.yaml so a new package is
// documented the day it lands), the user-facing front page docs/index.md and the guides.
import { existsSync, readFileSync, readdirSync } from 'node:fs';

const globs = [
  ...readFileSync('pnpm-workspace.yaml', 'utf8').matchAll(/^\s+-\s+['"]?([\w./-]+)\/\*['"]?\s*$/gm),
].map((match) => match[1]);
const published = globs
  .flatMap((dir) =>
    existsSync(dir)
      ? readdirSync(dir)
          .sort()
          .map((name) => `${dir}/${name}`)
      : [],
  )
  .filter((dir) => existsSync(`${dir}/package.json`))
  .filter((dir) => {
    const manifest = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8'));
    return manifest.private !== true && manifest.exports !== undefined;
  });

/** @type {Partial<import('typedoc').TypeDocOptions>} */
const config = {
  $schema: 'https://typedoc.org/schema.json',
  name: 'sked',
  entryPointStrategy: 'packages',
  entryPoints: published,
  readme: 'docs/index.md',
  projectDocuments: ['docs/guides/*.md', 'docs/openapi/reference.md'],
  treatValidationWarningsAsErrors: true,
  out: 'docs-site',
  disableSources: true,
};
export default config;
