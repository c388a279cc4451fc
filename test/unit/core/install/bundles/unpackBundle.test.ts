/**
 * Unpacking a bundle someone else made: every entry checked before a byte is
 * inflated (names, links, declared sizes, count), the inflated bytes counted
 * against what each entry declares, files streamed to disk through a
 * temporary folder that never outlives a failure, and what a killed install
 * left behind swept by the next one. Real zips, real files; the hostile ones
 * from test/helpers/hostileZip.ts.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readBundleBytes } from '../../../../../electron/core/install/bundles/installBundle.js';
import { removeInstallLeftovers } from '../../../../../electron/core/install/bundles/installLeftovers.js';
import { unpackInto } from '../../../../../electron/core/install/bundles/unpackBundle.js';
import { bundleManifest } from '../../../../helpers/bundles.js';
import { hostileZip, zerosDeflated, type HostileEntry } from '../../../../helpers/hostileZip.js';

const MiB = 1024 * 1024;
const manifest: HostileEntry = { name: 'manifest.json', data: Buffer.from(JSON.stringify(bundleManifest('greeter'))) };
const zipOf = (...entries: HostileEntry[]) => hostileZip([manifest, ...entries]);

let root: string;
let target: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'sb-unpack-'));
  target = join(root, 'bundles', 'greeter');
  await mkdir(join(root, 'bundles'));
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** Reads, then unpacks `bytes`; rejects with what either refused. */
async function install(bytes: Buffer): Promise<void> {
  const { archive } = await readBundleBytes(bytes, 'x.mcpb');
  await unpackInto(archive, target);
}
const left = () => readdir(join(root, 'bundles'));

describe('a bundle within bounds', () => {
  it('is unpacked with its folders and its files executable bits kept', async () => {
    await install(
      zipOf(
        { name: 'server/', mode: 0o040755 },
        { name: 'server/run.sh', data: Buffer.from('#!/bin/sh\n'), mode: 0o100755 },
        { name: 'data/big.bin', data: Buffer.alloc(3 * MiB, 7) },
      ),
    );
    expect(await left()).toEqual(['greeter']);
    expect((await stat(join(target, 'server/run.sh'))).mode & 0o777).toBe(0o755);
    expect((await readFile(join(target, 'data/big.bin'))).length).toBe(3 * MiB);
  });
});

describe('refused before anything is inflated or written', () => {
  it.each([
    ['a `../` entry', '../../escape.txt', 'entry "../../escape.txt" points outside the bundle'],
    ['a nested `..` entry', 'server/../../escape.txt', 'points outside the bundle'],
    ['an absolute entry', '/tmp/escape.txt', 'entry "/tmp/escape.txt" is an absolute path'],
    ['a drive-letter entry', 'C:/escape.txt', 'is an absolute path'],
    ['a backslash `..` entry', '..\\escape.txt', 'entry "../escape.txt" points outside the bundle'],
  ])('%s', async (_label, name, message) => {
    const refused = install(zipOf({ name, data: Buffer.from('x') }));
    await expect(refused).rejects.toMatchObject({ code: 'bundle_invalid', data: { field: '(file)' } });
    await expect(refused).rejects.toThrow(message);
    expect(await left()).toEqual([]);
  });

  it('a symbolic link, naming it', async () => {
    const link = { name: 'server/key', data: Buffer.from('/home/u/.ssh/id_rsa'), mode: 0o120777 };
    await expect(install(zipOf(link))).rejects.toMatchObject({
      code: 'bundle_invalid',
      message: 'x.mcpb: entry "server/key" is a symbolic link; a bundle may hold only files and folders; not installed',
      data: { entry: 'server/key' },
    });
    expect(await left()).toEqual([]);
  });

  it('an entry twice', async () => {
    const twice = install(zipOf({ name: 'a.txt', data: Buffer.from('1') }, { name: 'a.txt', data: Buffer.from('2') }));
    await expect(twice).rejects.toThrow('entry "a.txt" is in the zip twice');
  });

  it('an entry that declares more than 256 MB (a zip bomb that says so)', async () => {
    const bomb = { name: 'blob.bin', deflated: zerosDeflated(300), size: 300 * MiB, crc: 0 };
    await expect(install(zipOf(bomb))).rejects.toMatchObject({
      code: 'bundle_too_large',
      message: 'x.mcpb: entry "blob.bin" unpacks to more than 256 MB, the most one entry may have; not installed',
      data: { limit: 'maxEntryBytes' },
    });
  });

  it('entries that together declare more than 512 MB', async () => {
    const part = (n: number) => ({ name: `part${n}.bin`, deflated: zerosDeflated(1), size: 200 * MiB, crc: 0 });
    await expect(install(zipOf(part(1), part(2), part(3)))).rejects.toMatchObject({
      code: 'bundle_too_large',
      data: { limit: 'maxTotalBytes' },
    });
  });

  it('more than 20,000 entries', async () => {
    const many = Array.from({ length: 20_001 }, (_, i) => ({ name: `f/${i}` }));
    await expect(install(zipOf(...many))).rejects.toMatchObject({
      code: 'bundle_too_large',
      message: 'x.mcpb: 20002 entries, more than the 20000 a bundle may hold; not installed',
      data: { limit: 'maxEntries' },
    });
  });

  it('a manifest.json of more than 1 MB', async () => {
    const huge = { name: 'manifest.json', deflated: zerosDeflated(2), size: 2 * MiB, crc: 0 };
    await expect(install(hostileZip([huge]))).rejects.toMatchObject({ data: { limit: 'maxManifestBytes' } });
  });
});

describe('refused while inflating, the temporary folder removed', () => {
  it('an entry that inflates to far more than it declares (a zip bomb that lies)', async () => {
    const bomb = { name: 'server/blob.bin', deflated: zerosDeflated(300), size: 1024, crc: 0 };
    const refused = install(zipOf(bomb));
    await expect(refused).rejects.toMatchObject({ code: 'bundle_invalid', data: { entry: 'server/blob.bin' } });
    await expect(refused).rejects.toThrow('entry "server/blob.bin" inflates to more than the 1024 bytes it declares');
    expect(await left()).toEqual([]);
  });

  it('an entry that inflates to fewer bytes than it declares', async () => {
    const short = { name: 'a.bin', deflated: zerosDeflated(1), size: 2 * MiB, crc: 0 };
    await expect(install(zipOf(short))).rejects.toThrow(`entry "a.bin" inflates to ${MiB} bytes, not the ${2 * MiB}`);
    expect(await left()).toEqual([]);
  });

  it('an abort: cancelled, nothing left', async () => {
    const { archive } = await readBundleBytes(zipOf({ name: 'a.bin', data: Buffer.alloc(MiB) }), 'x.mcpb');
    const controller = new AbortController();
    controller.abort();
    await expect(unpackInto(archive, target, { signal: controller.signal })).rejects.toMatchObject({
      code: 'cancelled',
    });
    expect(await left()).toEqual([]);
  });
});

describe('leftovers of killed installs', () => {
  it('are removed when their process is gone, and kept while it runs', async () => {
    // No process has this PID: above Linux's largest pid_max (2^22) and any macOS PID.
    const gone = 4_194_305;
    const dead = join(root, 'bundles', `greeter.installing-${gone}-0123abcd`);
    const live = join(root, 'bundles', `other.installing-${process.ppid}-0123abcd`);
    const unrelated = join(root, 'bundles', 'kept');
    for (const dir of [dead, live, unrelated]) await mkdir(join(dir, 'sub'), { recursive: true });
    expect(await removeInstallLeftovers(join(root, 'bundles'))).toEqual([`greeter.installing-${gone}-0123abcd`]);
    expect((await left()).sort()).toEqual(['kept', `other.installing-${process.ppid}-0123abcd`]);
  });
});
