// Reads every WARC file given on the command line with warcio (webrecorder)
// and prints one line per record: type, profile, target URI, refers-to URI,
// payload digest, block length. Exits 1 on any parse error.
// Usage: NODE_PATH=.../node_modules node warcio_count.cjs FILE...
const fs = require('fs');
const { WARCParser } = require('warcio');

async function main() {
  for (const file of process.argv.slice(2)) {
    const parser = new WARCParser(fs.createReadStream(file));
    for await (const record of parser) {
      const h = { get: (name) => record.warcHeader(name) };
      const body = await record.readFully(false);
      console.log([record.warcType, h.get('WARC-Profile') || '-', record.warcTargetURI || '-',
                   h.get('WARC-Refers-To-Target-URI') || '-', h.get('WARC-Payload-Digest') || '-',
                   body.length].join('\t'));
    }
  }
}
main().catch((e) => { console.error(String(e)); process.exit(1); });
