/**
 * The terminal sanitiser lives in src/utils/sanitize.ts (the MCP server's log and tool results
 * use it too, and src/mcp does not import the CLI); re-exported here for the CLI's output layer.
 */
export { STYLE_MARK, safeJson, sanitizeText } from '../utils/sanitize.js';
