#!/usr/bin/env python3
"""Turns the output of run_interleave_probe.sh into tests/model/data/interleave_h200.txt.

Usage: encode_interleave_data.py OUT_DIR LIST > interleave_h200.txt
  OUT_DIR: cases.txt and blob.bin (gunzip blob.bin.gz first); LIST: `interleave_probe --list` output
  (the parameters of every case, crashed ones included). Every encoded line is checked to reproduce the
  recorded bytes exactly.
"""
import re
import sys


def tag(k, j):
    return (k >> (7 * j)) & 0x7F


def gpat(off):
    return bytes(tag((off + i) // 4 + 1, (off + i) % 4) for i in range(16))


def spat(off):
    return bytes(tag((off + i) // 4 + 1 + 0x100000, (off + i) % 4) for i in range(16))


def word(b):
    return sum((b[j] & 0x7F) << (7 * j) for j in range(4))


def main():
    out_dir, list_path = sys.argv[1], sys.argv[2]
    params = {int(l.split()[1]): l.split() for l in open(list_path)}
    blob = open(out_dir + '/blob.bin', 'rb').read()
    for line in open(out_dir + '/cases.txt'):
        t = line.split()
        i = int(t[1])
        head = ' '.join(params[i][2:])
        if 'crash' in t:
            print('%d %s trap' % (i, head))
            continue
        f = {t[k]: t[k + 1] for k in range(len(t) - 1) if re.match(r'^[a-z]', t[k])}
        if int(f['rc']) != 0:
            print('%d %s encode_fails' % (i, head))
            continue
        off, ln = int(f['off']), int(f['len'])
        d = blob[off:off + ln]
        if f['store'] == '0':
            runs = []
            for o in range(0, len(d), 16):
                ch = d[o:o + 16]
                if ch == b'\xa5' * 16:
                    k, v = 'u', 0
                elif ch == b'\0' * 16:
                    k, v = 'z', 0
                else:
                    k, v = 'g', (word(ch[0:4]) - 1) * 4
                    assert gpat(v) == ch, (i, o)
                if runs and runs[-1][0] == k and (k in 'zu' or v == runs[-1][1] + 16 * runs[-1][2]):
                    runs[-1][2] += 1
                else:
                    runs.append([k, v, 1])
            enc = ' '.join((k if k in 'zu' else '%s%d' % (k, v)) + ('x%d' % n if n > 1 else '') for k, v, n in runs)
            print('%d %s tx %d : %s' % (i, head, int(f['written']), enc))
        else:
            runs = []
            for o in range(0, len(d), 16):
                ch = d[o:o + 16]
                if ch == b'\xa5' * 16:
                    continue
                s = (word(ch[0:4]) - 1 - 0x100000) * 4
                assert spat(s) == ch, (i, o)
                if runs and o == runs[-1][0] + 16 * runs[-1][2] and s == runs[-1][1] + 16 * runs[-1][2]:
                    runs[-1][2] += 1
                else:
                    runs.append([o, s, 1])
            enc = ' '.join('%d<%d%s' % (g, s, ('x%d' % n if n > 1 else '')) for g, s, n in runs)
            print('%d %s gsize %d : %s' % (i, head, len(d), enc))


if __name__ == '__main__':
    main()
