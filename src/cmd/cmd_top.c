/*
 * cmd_top.c - `pct top`: a live view of the hottest functions.
 *
 * Every interval it reads the profiles again (pset_load, the reader of
 * `pct report`; never writing them) and redraws the model of top.h: with
 * ncurses when standard output is a terminal, else as one plain snapshot
 * per interval.  With -- COMMAND it runs the command under the runtime
 * as `pct record` does (launch.h), its profiles in a private temporary
 * directory that it follows as the process tree adds files, and exits
 * with the command's status after a last redraw.
 */
#define _GNU_SOURCE
#include <curses.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <locale.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "attach.h"
#include "commands.h"
#include "escape.h"
#include "launch.h"
#include "names.h"
#include "pset.h"
#include "symtab.h"
#include "top.h"
#include "util.h"

static const char usage[] =
	"usage: pct top [-d SECONDS] [-n ROWS] [--full-names] [--time=START..END] FILE...\n"
	"       pct top [-d SECONDS] [-n ROWS] [--full-names] [-F HZ] [-e EVENT] -- COMMAND [ARG...]\n"
	"       pct top [-d SECONDS] [-n ROWS] [--full-names] [-F HZ] [-e EVENT]\n"
	"               [--mechanism=perf|ptrace] -p PID[,PID...]\n"
	"\n"
	"A live view of the hottest functions: every interval, read the profiles\n"
	"again (never writing them) and redraw, for each function, its rate over\n"
	"the last interval (NOW) and over the whole run (RUN), each with its 95%\n"
	"interval, and which threads its samples of the run came from.  A rate\n"
	"is samples x the effective period over wall-clock time: % of one CPU for\n"
	"CPU time (100 = one CPU busy), events per second for a hardware event.\n"
	"\n"
	"FILE... are live profiles (pct record, or $PCT); top exits 0 once none\n"
	"is still being written (after a last snapshot), or on q.  With\n"
	"-- COMMAND, top runs COMMAND with sampling on, as pct record does,\n"
	"follows its process tree, and exits with COMMAND's status when it ends\n"
	"(after a last redraw, also printed when the screen is left), or 0 on q\n"
	"(COMMAND is sent SIGTERM, SIGKILL 5 s later); a hangup, SIGTERM or a\n"
	"closed output ends COMMAND the same way.  Its profiles are kept in a\n"
	"temporary directory and removed at the end.\n"
	"\n"
	"With -p, top attaches to running processes and samples them from\n"
	"outside, as pct record -p does (pct-top(1), ATTACHING), with their\n"
	"threads and the processes they fork; q (or SIGINT, SIGTERM, a hangup)\n"
	"detaches and leaves them running, and top exits 0 once they have all\n"
	"ended.\n"
	"\n"
	"On a terminal the view is drawn with ncurses; q quits.  Otherwise one\n"
	"plain snapshot is printed per interval, with no escape codes.\n"
	"\n"
	"  -d, --delay=SECONDS  the interval (default 1; 0.1 to 3600)\n"
	"  -n, --rows=ROWS      functions shown (default: what fits the terminal;\n"
	"                       20 when not on a terminal)\n"
	"      --full-names     C++ and Rust function names in full\n"
	"  -F, --freq=HZ        with COMMAND or -p: the rate, as pct record -F\n"
	"  -e, --event=EVENT    with COMMAND or -p: what to sample, as pct record -e\n"
	"  -p, --pid=PID[,PID...]  attach to these running processes\n"
	"      --mechanism=perf|ptrace  with -p: how, as pct record --mechanism\n"
	"      --time=START..END  only samples taken START to END seconds after\n"
	"                       the start (decimal; either may be left out: 2.5..,\n"
	"                       ..1): RUN counts those, NOW those of the interval\n"
	"      --comm=NAME[,NAME...]  only threads of these names or programs\n"
	"      --tid=TID[,TID...]  only these thread ids\n"
	"      --dso=MODULE[,MODULE...]  only samples in these modules\n"
	"  -h, --help           show this help\n"
	"\n"
	"See pct-top(1).\n";

/* What top watches, and where it draws. */
struct watch {
	char **files;                  /* FILE...; NULL with a command */
	size_t nfiles;
	char *dir, *file;              /* with a command: the private directory and $PCT */
	struct launch l;
	int running;                   /* the command has not ended */
	int status;                    /* its wait status once ended */
	struct attach *attached;       /* with -p: the session */
	int curses;                    /* drawing with ncurses */
	FILE *errlog;                  /* stderr's messages while curses draws */
	int saved_err;                 /* the real stderr then */
};

static struct watch *g_watch;  /* for the atexit handler */
static volatile sig_atomic_t g_stop;  /* SIGHUP or SIGTERM arrived (with a command) */

static void on_stop(int sig)
{
	g_stop = sig;
}

static uint64_t clock_ns(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Leave the screen and give stderr back, printing each message written
 * meanwhile once (a warning repeats at every reading). */
static void leave_screen(struct watch *w)
{
	if (!w->curses)
		return;
	endwin();
	w->curses = 0;
	fflush(stderr);
	dup2(w->saved_err, 2);
	close(w->saved_err);
	rewind(w->errlog);
	char *line = NULL, **seen = NULL;
	size_t cap = 0, nseen = 0, capseen = 0;
	while (getline(&line, &cap, w->errlog) > 0) {
		size_t i = 0;
		while (i < nseen && strcmp(seen[i], line) != 0)
			i++;
		if (i < nseen)
			continue;
		fputs(line, stderr);
		grow(&seen, &capseen, nseen + 1, sizeof *seen);
		seen[nseen++] = xstrdup(line);
	}
	for (size_t i = 0; i < nseen; i++)
		free(seen[i]);
	free(seen);
	free(line);
	fclose(w->errlog);
}

/* Remove the private directory and what the command's processes wrote
 * there. */
static void remove_dir(struct watch *w)
{
	if (w->dir == NULL)
		return;
	DIR *d = opendir(w->dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) != 0)
			warnx_("cannot remove '%s/%s': %s", w->dir, e->d_name, strerror(errno));
	}
	if (d)
		closedir(d);
	if (rmdir(w->dir) != 0)
		warnx_("cannot remove '%s': %s", w->dir, strerror(errno));
	free(w->dir);
	w->dir = NULL;
}

static void at_exit(void)
{
	if (g_watch) {
		leave_screen(g_watch);
		remove_dir(g_watch);
	}
}

/* Read the profiles into *s: the files, or the command's tree as it is
 * now.  Returns 1 with *s loaded, 0 if there is none yet (a command that
 * has taken no sample); dies on an unreadable or malformed file. */
static int load(struct watch *w, struct pset *s)
{
	if (w->files) {
		cmd_load(s, w->files, w->nfiles, "top: ");
		return 1;
	}
	char **paths;
	size_t n = launch_tree_paths(w->file, &paths);
	if (access(w->file, F_OK) == 0) {
		paths = xrealloc(paths, (n + 1) * sizeof *paths);
		memmove(paths + 1, paths, n++ * sizeof *paths);
		paths[0] = xstrdup(w->file);
	}
	if (n)
		cmd_load(s, paths, n, "top: ");
	launch_paths_free(paths, n);
	return n > 0;
}

/* Has the command ended (or, with -p, every process)?  Reaps it once. */
static void check_child(struct watch *w)
{
	if (w->attached)
		w->running = attach_running(w->attached);
	else if (w->running && waitpid(w->l.pid, &w->status, WNOHANG) == w->l.pid)
		w->running = 0;
}

/* The end of -p's session: detach (the processes run on). */
static void detach(struct watch *w)
{
	if (w->attached == NULL)
		return;
	attach_stop(w->attached);
	struct attach_result r;
	attach_finish(w->attached, &r);
	w->attached = NULL;
	w->running = 0;
}

/* q with a command: end it (SIGTERM, then SIGKILL after 5 s) and reap it. */
static void stop_child(struct watch *w)
{
	if (w->attached) {
		detach(w);
		return;
	}
	if (!w->running)
		return;
	kill(w->l.pid, SIGTERM);
	for (int i = 0; i < 50 && w->running; i++) {
		struct timespec ts = { 0, 100000000 };
		nanosleep(&ts, NULL);
		check_child(w);
	}
	if (w->running) {
		kill(w->l.pid, SIGKILL);
		waitpid(w->l.pid, &w->status, 0);
		w->running = 0;
	}
}

/* Read the files and update the model; the title names what is watched. */
static void update(struct watch *w, struct top *t)
{
	struct pset s;
	struct error e = { 0 };
	int have = load(w, &s);
	if (top_update(t, have ? &s : NULL, clock_ns(CLOCK_MONOTONIC), (int64_t)clock_ns(CLOCK_REALTIME), &e) != 0) {
		leave_screen(w);
		exit(error_report(&e));
	}
	if (have)
		pset_free(&s);
}

/* Draw the model: on the screen, or as a plain snapshot on stdout. */
static void draw(struct watch *w, const struct top *t, const char *title, size_t rows)
{
	if (!w->curses) {
		top_print(t, title, rows, 0, stdout);
		putchar('\n');
		fflush(stdout);
		return;
	}
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (m == NULL)
		die("out of memory");
	size_t fit = LINES > TOP_HEAD_LINES ? (size_t)(LINES - TOP_HEAD_LINES) : 0;
	top_print(t, title, rows < fit ? rows : fit, COLS, m);
	fclose(m);
	erase();
	int y = 0;
	for (char *l = buf, *next; l && *l && y < LINES; l = next, y++) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		mvaddstr(y, 0, l);
	}
	free(buf);
	clearok(curscr, TRUE);        /* the command may have written over it */
	refresh();
}

/* Wait up to ms for a key (curses) or just sleep; 1 if q was typed. */
static int wait_key(struct watch *w, int ms)
{
	if (w->curses) {
		timeout(ms);
		int c = getch();
		return c == 'q' || c == 'Q';
	}
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&ts, NULL);
	return 0;
}

static void enter_screen(struct watch *w)
{
	setlocale(LC_CTYPE, "");
	fflush(stderr);
	w->errlog = tmpfile();
	w->saved_err = dup(2);
	if (w->errlog == NULL || w->saved_err < 0 || dup2(fileno(w->errlog), 2) < 0)
		die("top: cannot set standard error aside while drawing: %s", strerror(errno));
	if (initscr() == NULL) {
		dup2(w->saved_err, 2);
		die("top: cannot start ncurses on this terminal ($TERM)");
	}
	w->curses = 1;
	cbreak();
	noecho();
	curs_set(0);
}

int cmd_top(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "delay", required_argument, NULL, 'd' },
		{ "rows", required_argument, NULL, 'n' },
		{ "full-names", no_argument, NULL, 'N' },
		{ "freq", required_argument, NULL, 'F' },
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "mechanism", required_argument, NULL, 'M' },
		PSET_SELECT_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint32_t *pids = NULL;
	size_t npids = 0;
	int mech = ATTACH_AUTO, mech_given = 0;
	double delay = 1;
	size_t rows = 0;
	const char *hz = NULL, *event = NULL;
	struct top t = { 0 };
	int c;
	char *end;
	while ((c = getopt_long(argc, argv, "+d:n:F:e:p:h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (attach_parse_pids(optarg, &pids, &npids) != 0)
				die_usage("top: -p wants process ids, separated by commas, not '%s'", optarg);
			break;
		case 'M':
			if ((mech = attach_parse_mechanism(optarg)) < 0)
				die_usage("top: --mechanism is perf or ptrace, not '%s'", optarg);
			mech_given = 1;
			break;
		case 'd':
			delay = strtod(optarg, &end);
			if (end == optarg || *end || !(delay >= 0.1 && delay <= 3600))
				die_usage("top: -d wants an interval of 0.1 to 3600 seconds, not '%s'", optarg);
			break;
		case 'n':
			rows = strtoul(optarg, &end, 10);
			if (rows == 0 || *end || optarg[0] == '-')
				die_usage("top: -n wants a number of rows, not '%s'", optarg);
			break;
		case 'N':
			t.full_names = 1;
			break;
		case 'F':
			if (strtoul(optarg, &end, 10) == 0 || *end || optarg[0] == '-')
				die_usage("top: -F wants a rate in Hz, not '%s'", optarg);
			hz = optarg;
			break;
		case 'e':
			if (pct_event_by_name(optarg) == NULL)
				die_usage("top: unknown event '%s' (" PCT_EVENT_NAMES ")", optarg);
			event = optarg;
			break;
		default:
			if (pset_select_option(c, optarg))
				break;
			return usage_exit(usage, c == 'h');
		}
	}
	int command = optind > 1 && strcmp(argv[optind - 1], "--") == 0;
	if (npids && optind < argc)
		die_usage("top: -p attaches to running processes; it takes no file or command ('%s')", argv[optind]);
	if (mech_given && !npids)
		die_usage("top: --mechanism goes with -p");
	if (npids)
		command = 1;
	else if (optind >= argc)
		return usage_short(usage);
	if (!command && (hz || event))
		die_usage("top: -F and -e go with -- COMMAND or -p, not with files");

	struct watch w = { 0 };
	char *title;
	int tty = isatty(1);
	struct attach_opts ao;
	if (npids) {
		const struct pct_event_def *d = pct_event_by_name(event ? event : "cpu");
		ao = (struct attach_opts){ .pids = pids, .npids = npids, .mech = mech, .event = d->event,
					   .period = d->default_period ? d->default_period
								       : 1000000000u / (hz ? strtoul(hz, NULL, 10) : 250),
					   .session = launch_session("top") };
		char why[2048];
		int rc = attach_check(&ao, why, sizeof why);
		if (rc == 2)
			die_usage("top: %s", why);
		if (rc)
			die("top: %s", why);
	}
	if (command) {
		const char *tmp = getenv("TMPDIR");
		w.dir = xasprintf("%s/pct-top.XXXXXX", tmp && *tmp == '/' ? tmp : "/tmp");
		if (mkdtemp(w.dir) == NULL)
			die("top: cannot create a directory for the profiles ('%s'): %s", w.dir, strerror(errno));
		w.file = xasprintf("%s/top.pct", w.dir);
		g_watch = &w;
		atexit(at_exit);
	}
	if (npids) {
		/* the profiles are written again as the session goes, for the
		 * reading of each interval (5 times an interval, 0.2 s at most) */
		ao.file = w.file;
		ao.snapshot_ns = (uint64_t)llround(delay * 1e9 / 5);
		if (ao.snapshot_ns > 200000000)
			ao.snapshot_ns = 200000000;
		char why[2048], name[16] = "?";
		w.attached = attach_start(&ao, why, sizeof why);
		if (w.attached == NULL)
			die("top: %s", why);
		w.running = 1;
		char path[64];
		snprintf(path, sizeof path, "/proc/%u/comm", pids[0]);
		FILE *f = fopen(path, "re");
		if (f && fgets(name, sizeof name, f))
			name[strcspn(name, "\n")] = '\0';
		if (f)
			fclose(f);
		char *en = esc_dup(name);
		title = npids == 1 ? xasprintf("%s (pid %u, attached with %s)", en, pids[0], attach_mech_name(ao.chosen))
				   : xasprintf("%zu processes (attached with %s)", npids, attach_mech_name(ao.chosen));
		free(en);
	} else if (command) {
		char **cmd = argv + optind;
		char *lib = launch_runtime("top");
		w.l = (struct launch){ .file = w.file, .runtime = lib, .session = launch_session("top"), .hz = hz,
				       .event = event, .stdin_null = tty };
		if (launch_start(&w.l, cmd) != 0)
			die("top: fork: %s", strerror(errno));
		free(lib);
		w.running = 1;
		title = xasprintf("%s (pid %d)", cmd[0], (int)w.l.pid);
	} else {
		w.files = argv + optind;
		w.nfiles = (size_t)(argc - optind);
		for (size_t i = 0; i < w.nfiles; i++)
			if (strcmp(w.files[i], "-") == 0)
				die_usage("top: reads live files again every interval, not standard input");
		title = w.nfiles == 1 ? xstrdup(w.files[0]) : xasprintf("%zu files", w.nfiles);
		g_watch = &w;
		atexit(at_exit);
	}
	if (rows == 0)
		rows = tty ? SIZE_MAX : 20;
	/* with a command, a reader that goes away (| head) must not leave it
	 * running unwatched: top sees the write fail, ends it as on q, and
	 * exits 1 */
	if (command)
		signal(SIGPIPE, SIG_IGN);
	/* and a hangup or SIGTERM (the terminal closed) ends it too, its
	 * profiles removed, then top dies of the same signal; with -p, so
	 * does SIGINT, after detaching */
	if (command) {
		struct sigaction sa = { .sa_handler = on_stop };
		sigemptyset(&sa.sa_mask);
		sigaction(SIGHUP, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		if (npids)
			sigaction(SIGINT, &sa, NULL);
	}

	if (tty)
		enter_screen(&w);

	int quit = 0, lost = 0, lost_errno = 0;
	uint64_t step = (uint64_t)llround(delay * 1e9), next = clock_ns(CLOCK_MONOTONIC);
	for (;;) {
		if (command)
			check_child(&w);
		uint64_t now = clock_ns(CLOCK_MONOTONIC);
		int ended = command ? !w.running : 0;
		if (now >= next || ended) {
			update(&w, &t);
			draw(&w, &t, title, rows);
			if (!w.curses && ferror(stdout)) {
				quit = lost = 1;
				lost_errno = errno;
				break;
			}
			next += step;
			if (next < now)
				next = now + step;
			if (ended || (!command && t.running == 0))
				break;
		}
		if (g_stop) {
			quit = 1;
			break;
		}
		uint64_t left = next > now ? (next - now) / 1000000 : 0;
		if (wait_key(&w, command ? (int)(left < 100 ? left : 100) : (int)left)) {
			quit = 1;
			break;
		}
	}
	if (w.curses && !quit) {
		/* the last view stays on the terminal once the screen is left */
		leave_screen(&w);
		top_print(&t, title, rows, term_columns(1), stdout);
		fflush(stdout);
	}
	leave_screen(&w);
	if (command && quit)
		stop_child(&w);
	detach(&w);
	if (command && !npids)
		launch_end(&w.l);
	remove_dir(&w);
	g_watch = NULL;
	top_free(&t);
	symtab_free_all();
	free(title);
	free(w.file);
	if (g_stop) {
		signal(g_stop, SIG_DFL);
		raise(g_stop);
	}
	if (lost) {
		note("top: standard output is gone (%s); %s", strerror(lost_errno),
		     npids ? "detached" : "the command was ended");
		return 1;
	}
	if (!command || quit || npids) {
		free(pids);
		return 0;
	}
	finish_stdout();
	return launch_exit_status(w.status);
}
