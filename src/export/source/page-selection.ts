import { routeOf } from './routes.ts';

/*
 * The spec's optional `paths` of an export job: only pages whose route is listed, or under a listed
 * folder, are rendered. "index" (or "/") is the home page alone: the index page, or where a site
 * without one starts (the first page of its default section), as its index.html does.
 */

/** Whether the requested path selects the page at `route`; `home` is the home page's route. */
export function selectsPage(path: string, route: string, home: string): boolean {
  const wanted = routeOf(path);
  if (wanted === '') return route === home;
  return route === wanted || route.startsWith(`${wanted}/`);
}

/** The requested paths that select no page of the site: every one, for one clear refusal. */
export function unknownPaths(paths: string[], routes: string[], home: string): string[] {
  return paths.filter((path) => !routes.some((route) => selectsPage(path, route, home)));
}

/** The message of a refusal of `unknown` paths. */
export function unknownPathsMessage(unknown: string[]): string {
  const shown = unknown.slice(0, 20).join(', ');
  const more = unknown.length > 20 ? ` and ${unknown.length - 20} more` : '';
  return `${unknown.length === 1 ? 'a requested path names' : `${unknown.length} requested paths name`} no page: ${shown}${more}`;
}
