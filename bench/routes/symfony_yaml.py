#!/usr/bin/env python3
"""symfony_yaml.py lists the routes a Symfony application declares in YAML
routing files, as debug:router would print them in the prod environment,
for a truth when the framework's router cannot run here (no php-cli, or the
application's vendor/ is absent). It is written apart from ragraf: PyYAML
reads the files.

Usage: python3 bench/routes/symfony_yaml.py ROOT > truth.tsv

From config/routes.yaml and config/routes/*.yaml it follows `resource:`
imports of YAML files (relative, or @SomeBundle/... found as the directory
of SomeBundle.php in the project), prefixes (Symfony's addPrefix) and name
prefixes accumulated; %parameters% and %env(NAME)% in prefixes and paths are
read from `parameters:` of the project's config and bundle
Resources/config YAML files and from .env, as the router resolves them.
Imports of other types (sylius.resource, api_platform, service) and bundles
outside the project are routes a loader builds from code not in the
repository: not listed. One line per method:

  symfony<TAB>METHOD /path<TAB>controller<TAB>name
"""
import os
import re
import sys

import yaml

root = sys.argv[1].rstrip('/')


class Loader(yaml.SafeLoader):
    pass


# tags such as !php/const are kept as strings
Loader.add_multi_constructor('!', lambda l, s, n: l.construct_scalar(n) if isinstance(n, yaml.ScalarNode) else None)

files = []
for d, dirs, names in os.walk(root):
    dirs[:] = [x for x in dirs if x not in ('.git', 'vendor', 'node_modules', 'var')]
    for n in names:
        files.append(os.path.relpath(os.path.join(d, n), root))
files.sort()


def is_test(p):
    return any(s.lower() in ('test', 'tests', 'fixtures', 'spec') for s in p.split('/'))


def load(p):
    try:
        with open(os.path.join(root, p), encoding='utf-8') as f:
            return yaml.load(f, Loader=Loader)
    except Exception as e:
        print('not read: %s: %s' % (p, e), file=sys.stderr)
        return None


params = {}
for p in files:
    if not p.endswith(('.yaml', '.yml')) or is_test(p):
        continue
    if not (p.startswith('config/') or '/Resources/config/' in p):
        continue
    d = load(p)
    if isinstance(d, dict) and isinstance(d.get('parameters'), dict):
        for k, v in d['parameters'].items():
            if isinstance(v, str):
                params.setdefault(k, v)
env = {}
if os.path.exists(os.path.join(root, '.env')):
    for ln in open(os.path.join(root, '.env'), encoding='utf-8'):
        ln = ln.strip()
        if ln and not ln.startswith('#') and '=' in ln:
            k, v = ln.split('=', 1)
            env[k.strip()] = v.strip().strip('"\'')


def resolve(s):
    for _ in range(5):
        def one(m):
            k = m.group(1)
            if k.startswith('env(') and k.endswith(')'):
                name = k[4:-1].split(':')[-1]
                return env.get(name, params.get('env(%s)' % name, m.group(0)))
            return params.get(k, m.group(0))
        t = re.sub(r'%([\w.()\-:]+)%', one, s)
        if t == s:
            break
        s = t
    return s


def bundle_dir(name):
    c = [os.path.dirname(p) for p in files if os.path.basename(p) == name + '.php' and not is_test(p)]
    return min(c, key=len) if c else None


def add_prefix(prefix, path):
    prefix = prefix.strip().strip('/')
    return '/' + prefix + path if prefix else path


def declared(ctl):
    """whether the controller's class is declared in the project"""
    cls = ctl.split('::')[0].lstrip('\\')
    if '\\' not in cls:
        return False
    ns, _, short = cls.rpartition('\\')
    for p in files:
        if os.path.basename(p) == short + '.php':
            with open(os.path.join(root, p), encoding='utf-8', errors='replace') as f:
                if re.search(r'namespace\s+' + re.escape(ns) + r'\s*;', f.read()):
                    return True
    return False


params_re = re.compile(r'\{(!?\w+)(?::[\w.]+)?(?:<[^>{}]*>)?(?:\?[^{}]*)?\}')
out = []
seen = set()


def visit(p, prefixes, name_prefix, depth=0):
    """prefixes: the import prefixes from the innermost out."""
    if (p, tuple(prefixes), name_prefix) in seen or depth > 12:
        return
    seen.add((p, tuple(prefixes), name_prefix))
    d = load(p)
    if not isinstance(d, dict):
        return
    for key, v in d.items():
        if not isinstance(v, dict) or str(key).startswith('when@'):
            continue
        if 'resource' in v:
            res, typ = v['resource'], v.get('type')
            if not isinstance(res, str) or typ not in (None, 'yaml'):
                continue
            if not res.endswith(('.yaml', '.yml')):
                continue
            if res.startswith('@'):
                b, _, rest = res[1:].partition('/')
                bd = bundle_dir(b)
                if bd is None:
                    continue
                target = os.path.normpath(os.path.join(bd, rest))
            else:
                target = os.path.normpath(os.path.join(os.path.dirname(p), res))
            pre = v.get('prefix') or ''
            visit(target, [resolve(pre)] + prefixes, name_prefix + (v.get('name_prefix') or ''), depth + 1)
            continue
        if 'path' not in v or not isinstance(v['path'], str):
            continue
        path = params_re.sub(r'{\1}', resolve(v['path']))
        if not path.startswith('/'):
            path = '/' + path
        for pre in prefixes:
            path = add_prefix(pre, path)
        ctl = v.get('controller') or (v.get('defaults') or {}).get('_controller') or ''
        if not declared(ctl):
            ctl = 'missing:' + (ctl or 'none')  # a service id, or a class outside the project
        methods = v.get('methods') or ['ANY']
        if isinstance(methods, str):
            methods = methods.split('|')
        for m in methods:
            out.append('symfony\t%s %s\t%s\t%s' % (m.upper(), path, ctl, name_prefix + str(key)))


starts = ['config/routes.yaml'] + sorted(p for p in files if os.path.dirname(p) == 'config/routes' and p.endswith(('.yaml', '.yml')))
for s in starts:
    if os.path.exists(os.path.join(root, s)):
        visit(s, [], '')
print('\n'.join(out))
