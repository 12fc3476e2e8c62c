// The ledger story over @modelcontextprotocol/sdk 1.x, the legacy generation:
// `initialize` handshake over Streamable HTTP. Its callTool validates
// structuredContent against the outputSchema cached from tools/list.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { env, report, runStory, StoryFailure, tamperingFetch } from './story.mjs';

const label = 'ts-sdk-1.x';
await report(label, async () => {
  const { url, token } = env();
  const tamper = tamperingFetch();
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: tamper.fetch,
  });
  const client = new Client({ name: 'dochiya-story-ts-v1', version: '1.0.0' });
  await client.connect(transport);
  try {
    const version = transport.protocolVersion;
    if (!['2025-11-25', '2025-06-18', '2025-03-26'].includes(version)) {
      throw new StoryFailure(`initialize negotiated ${version}, expected a 2025 revision`);
    }
    console.log(`[${label}] ok: initialize negotiated ${version} (server ${JSON.stringify(client.getServerVersion())})`);
    const steps = await runStory(label, {
      listTools: async () => {
        // The SDK's tools/list (it fills the output-schema cache), every page.
        let page = await client.listTools();
        const tools = [...page.tools];
        while (page.nextCursor) {
          page = await client.listTools({ cursor: page.nextCursor });
          tools.push(...page.tools);
        }
        return tools;
      },
      callTool: (name, args) => client.callTool({ name, arguments: args }),
    }, tamper.state);
    return [`negotiated ${version}`, ...steps];
  } finally {
    await client.close();
  }
});
