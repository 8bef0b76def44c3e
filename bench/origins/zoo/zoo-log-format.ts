/**
 * The one access-log line every member is configured to write, in its own directive language:
 * `time origin port connection protocol status bytes "METHOD path"`, space-separated. `connection`
 * is whatever the member can say that is equal for one client connection and different for
 * another (nginx's serial number, h2o's connection id, otherwise the client's port); the reader
 * (zoo-access-log.ts) numbers connections and requests per connection from it.
 */

/** The path a log writer's readiness probe asks for (a 404, before any measured request). */
export const ZOO_READY_PATH = '/.zoo-log-ready';
