// This file finds entry points in one PHP file: web routes (Laravel, Slim,
// FastRoute, Symfony #[Route] and @Route), WordPress REST routes, AJAX and
// admin-post hooks and shortcodes, CLI commands (WP-CLI, Symfony Console,
// Laravel Artisan) and scheduled jobs. Each becomes a node below the file
// with a fact.RefHandles reference to its handler; sql.go holds the walk.

package php

import (
	"regexp"
	"strings"

	sitter "github.com/ragraf/ragraf/internal/lang/syntax"

	"github.com/ragraf/ragraf/internal/fact"
)

// RouteSource names this extractor in edge provenance.
const RouteSource = "php-routes"

var httpVerbs = map[string]string{
	"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE",
	"options": "OPTIONS", "any": "ANY", "head": "HEAD",
}

// chainRoutes are the route registrations a chain of Laravel route
// attributes can end with, besides the HTTP verbs.
var chainRoutes = map[string]bool{"match": true, "resource": true, "apiresource": true, "resources": true, "apiresources": true, "fallback": true}

// routeReceiver matches the variables that hold a router in Slim, FastRoute
// and home-grown routers.
var routeReceiver = regexp.MustCompile(`(?i)^\$(app|router|route|routes|r|group|map|collector|routecollector|this->router|this->app)$`)

// entry adds an entry point node at node at and its handles reference.
func (d *domainWalker) entry(kind fact.NodeKind, qname string, at *sitter.Node, props map[string]string, handler *sitter.Node) string {
	name, raw, short := d.handler(handler)
	return d.entryTo(kind, qname, at, props, handler, name, raw, short)
}

// entryTo adds an entry point node whose handler is already read: name for
// resolve, raw as written, short for an unqualified class name; the handles
// reference is placed at refAt (where the handler is named) or at.
func (d *domainWalker) entryTo(kind fact.NodeKind, qname string, at *sitter.Node, props map[string]string, refAt *sitter.Node, name, raw string, short bool) string {
	key := "entry\x00" + string(kind) + "\x00" + qname
	disamb := d.seen[key]
	d.seen[key]++
	id := fact.NodeID(kind, qname, d.path, disamb)
	start, end := line(at.StartPosition()), endLine(at)
	if props == nil {
		props = map[string]string{}
	}
	if raw != "" {
		props["handler"] = clip(raw, 160)
	}
	d.nodes = append(d.nodes, fact.Node{
		ID: id, Kind: kind, Name: qname, QName: qname, Path: d.path, StartLine: start, EndLine: end,
		Lang: Lang, Parent: d.fileID, Props: props,
	})
	d.edges = append(d.edges, fact.Edge{
		ID: fact.EdgeID(fact.Contains, d.fileID, id, d.path, start), Kind: fact.Contains,
		From: d.fileID, To: id, Provenance: fact.Stated, Confidence: 1,
		EvidencePath: d.path, EvidenceLine: start, Sources: []string{RouteSource},
	})
	if name != "" {
		rp := map[string]string{"raw": clip(raw, 160)}
		if short {
			rp["short"] = "true"
		}
		if refAt == nil {
			refAt = at
		}
		// the evidence is where the handler is named
		d.ref(fact.RefHandles, id, refAt, name, rp)
	}
	return id
}

// handler reads a callable expression: it returns the target name for
// resolve ("Class::method", "Class", "function"), the expression as written,
// and whether a class name was unqualified with no import.
func (d *domainWalker) handler(e *sitter.Node) (name, raw string, short bool) {
	if e == nil {
		return "", "", false
	}
	e = d.bound(e)
	raw = d.text(e)
	switch e.Kind() {
	case "anonymous_function", "arrow_function", "anonymous_function_creation_expression":
		return "", "closure at line " + itoa(line(e.StartPosition())), false
	case "string", "encapsed_string":
		s, ok := d.literal(e)
		if !ok || s == "" {
			return "", raw, false
		}
		if cls, m, ok := strings.Cut(s, "@"); ok {
			fq, sh := d.className(cls)
			return fq + "::" + m, raw, sh
		}
		if cls, m, ok := strings.Cut(s, "::"); ok {
			fq, sh := d.className(cls)
			return fq + "::" + m, raw, sh
		}
		if cls, m, ok := strings.Cut(s, ":"); ok && identLike(cls) && identLike(m) {
			// Slim's 'Class:method'
			fq, sh := d.className(cls)
			return fq + "::" + m, raw, sh
		}
		return strings.TrimPrefix(s, `\`), raw, false
	case "class_constant_access_expression":
		if e.NamedChildCount() == 2 && strings.EqualFold(d.text(e.NamedChild(1)), "class") {
			fq, sh := d.className(d.text(e.NamedChild(0)))
			return fq, raw, sh
		}
	case "object_creation_expression":
		for i := uint(0); i < e.NamedChildCount(); i++ {
			if c := e.NamedChild(i); isNameKind(c.Kind()) {
				fq, sh := d.className(d.text(c))
				return fq, raw, sh
			}
		}
	case "array_creation_expression":
		els := namedOf(e, "array_element_initializer")
		if len(els) == 2 && els[0].NamedChildCount() == 1 && els[1].NamedChildCount() == 1 {
			m, ok := d.literal(els[1].NamedChild(0))
			if !ok {
				return "", raw, false
			}
			obj := els[0].NamedChild(0)
			switch obj.Kind() {
			case "class_constant_access_expression":
				cn, _, _ := d.handler(obj)
				if cn != "" {
					_, _, sh := d.handler(obj)
					return cn + "::" + m, raw, sh
				}
			case "string":
				// a class name in a string is fully qualified
				if s, ok := d.literal(obj); ok {
					return strings.TrimPrefix(s, `\`) + "::" + m, raw, false
				}
			case "member_access_expression":
				// [$this->controller, 'm'] with the property's class known
				if sm := thisProp.FindStringSubmatch(d.text(obj)); sm != nil && d.cls != nil {
					if t := d.cls.types[sm[1]]; t != "" {
						return t + "::" + m, raw, true
					}
				}
			case "variable_name":
				if d.text(obj) == "$this" && d.cls != nil && d.cls.fq != "" {
					return d.cls.fq + "::" + m, raw, false
				}
				return "?::" + m, raw, false
			}
			return "?::" + m, raw, false
		}
	}
	return "", raw, false
}

// identLike reports whether s is a name or a qualified name.
func identLike(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r != '_' && r != '\\' && !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80) {
			return false
		}
	}
	return true
}

// className resolves a class name written in code or in a string.
func (d *domainWalker) className(s string) (string, bool) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "self") || strings.EqualFold(s, "static") {
		if d.cls != nil {
			return d.cls.fq, false
		}
	}
	if strings.HasPrefix(s, `\`) {
		return s[1:], false
	}
	first, _, _ := strings.Cut(s, `\`)
	if _, ok := d.names.sc.classes[fact.Lower(first)]; ok {
		return d.names.sc.class(s), false
	}
	if strings.Contains(s, `\`) {
		return s, false // strings hold fully qualified names
	}
	return d.names.sc.class(s), true
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// routePath joins the group prefixes and a route path.
func (d *domainWalker) routePath(p string) string {
	parts := append([]string{}, d.prefix...)
	parts = append(parts, p)
	var segs []string
	for _, s := range parts {
		if s = strings.Trim(s, "/"); s != "" {
			segs = append(segs, s)
		}
	}
	return "/" + strings.Join(segs, "/")
}

func (d *domainWalker) route(verb, path string, at, handler *sitter.Node, framework string) {
	if framework == "laravel" {
		d.laravelRoute(verb, path, at, handler)
		return
	}
	full := d.routePath(path)
	d.entry(fact.WebRoute, verb+" "+full, at, map[string]string{"method": verb, "uri": full, "framework": framework}, handler)
}

// call handles plain function calls: sprintf SQL, WordPress registrations.
func (d *domainWalker) call(n *sitter.Node) bool {
	fn := n.ChildByFieldName("function")
	if fn == nil || !isNameKind(fn.Kind()) {
		return false
	}
	name := fact.Lower(strings.TrimPrefix(d.text(fn), `\`))
	pos, named := d.args(n)
	d.templateCall(n, name, pos)
	switch name {
	case "sprintf", "vsprintf":
		return d.sqlCandidate(n, n)
	case "register_rest_route":
		d.restRoute(n, pos)
	case "add_action", "add_filter":
		d.wpHook(n, name, pos)
	case "do_action", "do_action_ref_array", "do_action_deprecated", "apply_filters", "apply_filters_ref_array", "apply_filters_deprecated":
		if len(pos) > 0 {
			if hook, ok := d.literal(pos[0]); ok && hook != "" {
				d.ref(fact.RefHookFire, d.enclosing(line(n.StartPosition())), n, hook, map[string]string{"fn": name})
			}
		}
	case "add_shortcode":
		if len(pos) >= 2 {
			tag, ok := d.literal(pos[0])
			if !ok {
				tag = d.text(pos[0])
			}
			d.entry(fact.WebRoute, "["+tag+"]", n, map[string]string{"type": "shortcode", "framework": "wordpress"}, pos[1])
		}
	case "wp_schedule_event", "wp_schedule_single_event":
		hi := 2
		if name == "wp_schedule_single_event" {
			hi = 1
		}
		if len(pos) > hi {
			hook, ok := d.literal(pos[hi])
			if !ok {
				hook = d.text(pos[hi])
			}
			props := map[string]string{"hook": hook, "framework": "wordpress"}
			if hi == 2 {
				if rec, ok := d.literal(pos[1]); ok {
					props["schedule"] = rec
				}
			} else {
				props["schedule"] = "once"
			}
			id := d.entry(fact.CronJob, hook, n, props, nil)
			d.ref(fact.RefHandles, id, n, "hook:"+hook, map[string]string{"raw": hook})
		}
	case "dbdelta":
		if len(pos) >= 1 {
			if parts, ok := d.template(pos[0], 0); ok && pos[0].Kind() != "variable_name" {
				d.analyze(parts, n, "")
				return true
			}
		}
	}
	_ = named
	return false
}

// memberCall handles $router->get(), $app->group(), $wpdb->insert(),
// $schedule->command(), $this->addSql(), Phinx tables.
func (d *domainWalker) memberCall(n *sitter.Node) bool {
	obj, nm := n.ChildByFieldName("object"), n.ChildByFieldName("name")
	if obj == nil || nm == nil {
		return false
	}
	recv, method := d.text(obj), fact.Lower(d.text(nm))
	pos, named := d.args(n)
	d.ormMember(n, recv, method, pos)
	d.templateMember(n, recv, method, pos)
	d.containerBind(n, recv, method, pos)
	if method == "name" && d.routeName(n, obj, pos) {
		return true
	}
	switch {
	case recv == "$wpdb" || strings.HasSuffix(recv, "->wpdb"):
		switch method {
		case "insert", "update", "delete", "replace":
			if len(pos) >= 1 {
				d.tableArg(pos[0], n, "$wpdb->"+method, method)
			}
		}
		return false
	case method == "addsql" && len(pos) >= 1:
		if parts, ok := d.template(pos[0], 0); ok {
			d.analyze(parts, pos[0], "addSql")
			return true
		}
	case method == "command" && isScheduleRecv(recv) && len(pos) >= 1:
		cmd, ok := d.literal(pos[0])
		if !ok {
			if h, _, _ := d.handler(pos[0]); h != "" {
				id := d.entry(fact.CronJob, h, n, map[string]string{"schedule": d.frequency(n), "framework": "laravel"}, pos[0])
				_ = id
				return false
			}
			cmd = d.text(pos[0])
		}
		cmd, _, _ = strings.Cut(strings.TrimSpace(cmd), " ")
		id := d.entry(fact.CronJob, cmd, n, map[string]string{"schedule": d.frequency(n), "command": cmd, "framework": "laravel"}, nil)
		d.ref(fact.RefHandles, id, n, "command:"+cmd, map[string]string{"raw": d.text(pos[0])})
		return false
	case method == "job" && isScheduleRecv(recv) && len(pos) >= 1:
		h, _, _ := d.handler(pos[0])
		if h != "" && !strings.Contains(h, "::") {
			h += "::handle"
		}
		d.entry(fact.CronJob, strings.TrimPrefix(h, `\`), n, map[string]string{"schedule": d.frequency(n), "framework": "laravel"}, nil)
		if h != "" {
			d.ref(fact.RefHandles, d.nodes[len(d.nodes)-1].ID, n, h, map[string]string{"raw": d.text(pos[0])})
		}
		return false
	case method == "table" && recv == "$this" && len(pos) >= 1 && d.isMigration():
		return d.phinx(n, pos)
	case (method == "createtable" || method == "gettable") && len(pos) >= 1 && strings.HasSuffix(strings.ToLower(recv), "schema"):
		return d.doctrineSchema(n, method, pos)
	}
	if routeReceiver.MatchString(recv) {
		return d.routeCall(n, method, pos, named, d.routerFramework())
	}
	if obj.Kind() == "scoped_call_expression" || obj.Kind() == "member_call_expression" {
		if method == "group" {
			return d.chainGroup(n, obj, pos)
		}
		if _, ok := httpVerbs[method]; ok || chainRoutes[method] {
			return d.chainRoute(n, obj, method, pos, named)
		}
	}
	return false
}

// routerFramework names the framework of $router->get() style routes:
// fastroute or laravel in a file that imports a FastRoute or Illuminate
// class, else slim.
func (d *domainWalker) routerFramework() string {
	fw := "slim"
	for _, fq := range d.names.sc.classes {
		switch {
		case strings.HasPrefix(fq, `FastRoute\`):
			return "fastroute"
		case strings.HasPrefix(fq, `Illuminate\`):
			fw = "laravel"
		}
	}
	return fw
}

func isScheduleRecv(recv string) bool {
	l := strings.ToLower(recv)
	return strings.HasSuffix(l, "schedule") || strings.HasSuffix(l, "scheduler")
}

// frequency is the schedule method chained after a scheduled command, e.g.
// "daily" or "dailyAt('04:15')".
func (d *domainWalker) frequency(n *sitter.Node) string {
	var fs []string
	for p := n.Parent(); p != nil && p.Kind() == "member_call_expression"; p = p.Parent() {
		nm := p.ChildByFieldName("name")
		if nm == nil {
			break
		}
		f := d.text(nm)
		if a := p.ChildByFieldName("arguments"); a != nil && a.NamedChildCount() > 0 {
			f += d.text(a)
		}
		fs = append(fs, f)
	}
	return strings.Join(fs, "->")
}

// tableArg emits a references_table fact for a table argument.
func (d *domainWalker) tableArg(a, at *sitter.Node, via, op string) {
	parts, ok := d.template(a, 0)
	if !ok {
		return
	}
	name, inferred := "", false
	for _, p := range parts {
		if p.Hole != "" {
			h := strings.ToLower(p.Hole)
			switch {
			case strings.HasSuffix(h, "prefix"):
				inferred = true
			case strings.HasPrefix(h, "$wpdb->"):
				name += p.Hole[len("$wpdb->"):]
				inferred = true
			default:
				d.ref(fact.RefSQLDynamic, d.enclosing(line(at.StartPosition())), at, p.Hole, map[string]string{"via": via})
				return
			}
			continue
		}
		name += p.Lit
	}
	if name == "" {
		return
	}
	d.ref(fact.RefTableUse, d.enclosing(line(at.StartPosition())), at, stripPrefix(name), map[string]string{
		"via": via, "op": op, "inferred": boolString(inferred)})
}

func boolString(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// routeCall handles $router->get('/x', h), ->map(), ->addRoute(), ->group().
func (d *domainWalker) routeCall(n *sitter.Node, method string, pos []*sitter.Node, named map[string]*sitter.Node, fw string) bool {
	if verb, ok := httpVerbs[method]; ok && len(pos) >= 2 {
		p, ok := d.literal(pos[0])
		if !ok && fw == "laravel" && isStringExpr(pos[0]) {
			// a URI built at run time ('/hook/' . config('x')): the route
			// keeps its handler, its URI the expression
			p, _ = d.routeText(pos[0])
			d.unresolvedURI = true
			d.route(verb, p, n, pos[len(pos)-1], fw)
			d.unresolvedURI = false
			d.visitArgs(pos)
			return true
		}
		if !ok {
			return false
		}
		d.route(verb, p, n, pos[len(pos)-1], fw)
		d.visitArgs(pos)
		return true
	}
	switch method {
	case "map", "match", "addroute", "route":
		if len(pos) >= 3 {
			p, ok := d.literal(pos[1])
			if !ok {
				return false
			}
			for _, v := range d.verbs(pos[0]) {
				d.route(v, p, n, pos[2], fw)
			}
			d.visitArgs(pos)
			return true
		}
	case "group", "addgroup":
		if len(pos) >= 2 {
			prefix, g := d.groupAttrs(pos[0])
			return d.laravelGroup(prefix, g, pos[len(pos)-1])
		}
	}
	return false
}

func (d *domainWalker) group(prefix string, body *sitter.Node) bool {
	d.prefix = append(d.prefix, prefix)
	d.visit(body)
	d.prefix = d.prefix[:len(d.prefix)-1]
	return true
}

func (d *domainWalker) visitArgs(pos []*sitter.Node) {
	for _, p := range pos {
		if p.Kind() == "anonymous_function" || p.Kind() == "arrow_function" {
			d.visit(p)
		}
	}
}

func (d *domainWalker) verbs(a *sitter.Node) []string {
	if s, ok := d.literal(a); ok {
		return []string{strings.ToUpper(s)}
	}
	var out []string
	if a.Kind() == "array_creation_expression" {
		for _, el := range namedOf(a, "array_element_initializer") {
			if el.NamedChildCount() == 1 {
				if s, ok := d.literal(el.NamedChild(0)); ok {
					out = append(out, strings.ToUpper(s))
				}
			}
		}
	}
	if len(out) == 0 {
		out = []string{d.text(a)}
	}
	return out
}

// staticCall handles Route::get(), DB::table(), Schema::create(),
// WP_CLI::add_command().
func (d *domainWalker) staticCall(n *sitter.Node) bool {
	scope, nm := n.ChildByFieldName("scope"), n.ChildByFieldName("name")
	if scope == nil || nm == nil {
		return false
	}
	cls := d.text(scope)
	short := cls
	if i := strings.LastIndexByte(cls, '\\'); i >= 0 {
		short = cls[i+1:]
	}
	method := fact.Lower(d.text(nm))
	pos, named := d.args(n)
	if scope.Kind() == "name" || scope.Kind() == "qualified_name" || scope.Kind() == "relative_scope" {
		d.ormStatic(n, cls, method)
	}
	d.templateStatic(n, short, method, pos)
	switch fact.Lower(short) {
	case "route":
		return d.laravelStatic(n, method, pos, named)
	case "db":
		if method == "table" && len(pos) >= 1 {
			d.tableArg(pos[0], n, "DB::table", "")
		}
	case "schema":
		if (method == "create" || method == "table") && len(pos) >= 2 {
			return d.blueprint(n, method, pos)
		}
	case "wp_cli":
		if method == "add_command" && len(pos) >= 2 {
			c, ok := d.literal(pos[0])
			if !ok {
				c = d.text(pos[0])
			}
			d.entry(fact.CLICommand, "wp "+c, n, map[string]string{"framework": "wp-cli", "command": c}, pos[1])
			return false
		}
	}
	return false
}

var signatureName = regexp.MustCompile(`^\s*([^\s{]+)`)

// classEntries finds commands declared by a class: Laravel $signature,
// Symfony #[AsCommand] and $defaultName; and a class-level #[Route] prefix.
func (d *domainWalker) classEntries(n *sitter.Node, c *domainClass) {
	d.classValues(n, c)
	if c.fq == "" {
		return
	}
	for _, a := range d.attributes(n) {
		switch a.name {
		case "ascommand":
			v := a.named["name"]
			if v == nil && len(a.pos) > 0 {
				v = a.pos[0]
			}
			if s, ok := d.literal(v); ok {
				d.command(n, s, c.fq+"::execute", "symfony")
			}
		}
	}
	body := n.ChildByFieldName("body")
	d.classRoute(n, body, c)
	if body == nil {
		return
	}
	for _, m := range namedOf(body, "property_declaration") {
		for _, el := range namedOf(m, "property_element") {
			nm := el.ChildByFieldName("name")
			v := el.ChildByFieldName("default_value")
			if nm == nil || v == nil {
				continue
			}
			s, ok := d.literal(v)
			if !ok {
				continue
			}
			switch d.text(nm) {
			case "$signature":
				if sm := signatureName.FindStringSubmatch(s); sm != nil {
					d.command(m, sm[1], c.fq+"::handle", "laravel")
				}
			case "$defaultName":
				d.command(m, s, c.fq+"::execute", "symfony")
			}
		}
	}
	for _, m := range namedOf(body, "method_declaration") {
		if nm := m.ChildByFieldName("name"); nm == nil || !strings.EqualFold(d.text(nm), "configure") {
			continue
		}
		m.Descendants(func(x *sitter.Node) bool {
			if x.Kind() == "member_call_expression" {
				if nm := x.ChildByFieldName("name"); nm != nil && strings.EqualFold(d.text(nm), "setName") {
					if p, _ := d.args(x); len(p) > 0 {
						if s, ok := d.literal(p[0]); ok {
							d.command(x, s, c.fq+"::execute", "symfony")
						}
					}
				}
			}
			return true
		})
	}
}

func (d *domainWalker) command(at *sitter.Node, name, handler, fw string) {
	id := d.entry(fact.CLICommand, name, at, map[string]string{"framework": fw, "command": name}, nil)
	d.ref(fact.RefHandles, id, at, handler, map[string]string{"raw": handler})
}

// maxUnrolled bounds the elements of a literal array a foreach is walked for.
const maxUnrolled = 256

// unrollForeach walks the body of `foreach ($list as $k => $v)` once per
// element when $list is an array literal assigned earlier in the function
// (or written inline), with $k and $v bound to the element's key and value,
// so that routes and hooks registered in a loop over literal names are
// found one by one. It reports whether it walked the body.
func (d *domainWalker) unrollForeach(n *sitter.Node) bool {
	if n.NamedChildCount() < 3 {
		return false
	}
	list, bind := n.NamedChild(0), n.NamedChild(1)
	if list.Kind() == "variable_name" {
		if a := d.arrays[d.text(list)]; a != nil && a.StartByte() < n.StartByte() {
			list = a
		}
	}
	if list.Kind() != "array_creation_expression" {
		return false
	}
	var kv, vv string
	switch bind.Kind() {
	case "variable_name":
		vv = d.text(bind)
	case "pair":
		if bind.NamedChildCount() != 2 || bind.NamedChild(0).Kind() != "variable_name" || bind.NamedChild(1).Kind() != "variable_name" {
			return false
		}
		kv, vv = d.text(bind.NamedChild(0)), d.text(bind.NamedChild(1))
	default:
		return false
	}
	els := namedOf(list, "array_element_initializer")
	if len(els) == 0 || len(els) > maxUnrolled {
		return false
	}
	d.visit(list)
	prevK, prevV := d.vars[kv], d.vars[vv]
	for _, el := range els {
		switch el.NamedChildCount() {
		case 1:
			d.vars[vv] = el.NamedChild(0)
			delete(d.vars, kv)
		case 2:
			d.vars[kv], d.vars[vv] = el.NamedChild(0), el.NamedChild(1)
		default:
			continue
		}
		for i := uint(2); i < n.NamedChildCount(); i++ {
			d.visit(n.NamedChild(i))
		}
	}
	for k, v := range map[string]*sitter.Node{kv: prevK, vv: prevV} {
		if k == "" {
			continue
		}
		if v == nil {
			delete(d.vars, k)
		} else {
			d.vars[k] = v
		}
	}
	return true
}

// bound is the expression a variable is bound to (by unrollForeach, or a
// string assigned earlier in the function), or e.
func (d *domainWalker) bound(e *sitter.Node) *sitter.Node {
	if e != nil && e.Kind() == "variable_name" {
		if v := d.vars[d.text(e)]; v != nil && v.StartByte() < e.StartByte() {
			return v
		}
	}
	return e
}

// noteArray records (or forgets) the array literal assigned to variable v.
func (d *domainWalker) noteArray(v string, r *sitter.Node) {
	if r.Kind() == "array_creation_expression" {
		if d.arrays == nil {
			d.arrays = map[string]*sitter.Node{}
		}
		d.arrays[v] = r
		return
	}
	delete(d.arrays, v)
}
