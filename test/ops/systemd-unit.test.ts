// The systemd unit the project ships (deploy/akker.service) is one systemd accepts, and it starts
// the built server that `npm run build` makes.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const unitFile = fileURLToPath(new URL('../../deploy/akker.service', import.meta.url));
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;

describe('deploy/akker.service', () => {
  it.skipIf(!hasSystemdAnalyze)('passes systemd-analyze verify', () => {
    // Throws, with systemd's complaint, when the unit is not valid.
    execFileSync('systemd-analyze', ['verify', unitFile], { stdio: 'pipe' });
  });

  it('runs the built server, stops it with SIGTERM, and keeps the embedded database in its state directory', () => {
    const unit = readFileSync(unitFile, 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node dist\/server\.js$/m);
    expect(unit).toMatch(/^KillSignal=SIGTERM$/m);
    expect(unit).toMatch(/^Environment=DATA_DIR=\/var\/lib\/akker$/m);
    expect(unit).toMatch(/^StateDirectory=akker$/m);
    expect(JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')).scripts.build).toContain(
      'tsconfig.build.json',
    );
  });
});
