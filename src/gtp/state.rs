//! The engine's state behind the protocol: the game, the settings, the clocks, the search tree and the random
//! generator, with the few operations every handler shares. Nothing here knows a command.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::net::{self, Family, Net, Precision};
use crate::notation::Notation;
use crate::rng::Rng;
use crate::rules::{Color, Game, Geometry, Move, Shape, Status};
use crate::search::learned::Model;
use crate::search::time::{Clock, TimeSystem, moves_left};
use crate::search::{
    Config, Control, EvalCache, Limits, NET_C_PUCT, NET_FPU_REDUCTION, NET_LAMBDA, NetEval,
    PlayerKind, Priors, Request, SearchResult, Searcher, Setup, nodes_for_megabytes,
};

use super::error::GtpError;
use super::levels::Level;

/// Thinking time per move when nothing else decides it.
pub const DEFAULT_THINK: Duration = Duration::from_secs(1);

/// Engine settings, from the command line and from the protocol.
#[derive(Clone, Debug)]
pub struct Options {
    /// Seed of the random generator: the same seed and the same commands give the same answers.
    pub seed: u64,
    /// The board at start-up.
    pub board: Shape,
    /// Whether `play` and `genmove` add move reports to their responses.
    pub reports: Reports,
    /// Search settings.
    pub settings: Settings,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seed: 1,
            board: Shape::square(9),
            reports: Reports::Auto,
            settings: Settings::default(),
        }
    }
}

/// Whether `play` and `genmove` add move reports (`capture N`, `extra-turn`, ...) to their responses. Strict GTP
/// controllers such as GoGui accept only a bare vertex from `genmove`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Reports {
    /// Reports on until the controller shows itself to be GoGui by sending a `gogui-rules_*` command; off from
    /// then on.
    #[default]
    Auto,
    /// Always report.
    On,
    /// Never report: standard GTP responses.
    Off,
}

impl Reports {
    /// The mode's name: `auto`, `on` or `off`.
    pub fn name(self) -> &'static str {
        match self {
            Reports::Auto => "auto",
            Reports::On => "on",
            Reports::Off => "off",
        }
    }

    /// The mode named `auto`, `on` or `off` (any case).
    pub fn from_name(name: &str) -> Option<Reports> {
        [Reports::Auto, Reports::On, Reports::Off]
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(name))
    }
}

/// The search settings of the engine.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Which player answers `genmove`.
    pub player: PlayerKind,
    /// Playouts per move; 0 for no playout limit.
    pub playouts: u64,
    /// Seconds per move; 0 for the default (1 second, unless a playout limit or a clock decides).
    pub time_per_move: f64,
    /// Search threads.
    pub threads: usize,
    /// Resign when the winning chance stays below this for two moves in a row; 0 never resigns.
    pub resign_threshold: f64,
    /// Memory for the search tree, in megabytes.
    pub tree_mb: usize,
    /// Share of a move's budget the solver gets first (0 never).
    pub solver_share: f64,
    /// Memory for the solver's table, in megabytes.
    pub solver_mb: usize,
    /// Tree search constants.
    pub config: Config,
    /// The names `play`, `genmove` and `list_legal` use for moves.
    pub notation: Notation,
    /// The pie rule (RULES.md rule 9): White may answer Black's first placement with `swap`.
    pub pie: bool,
    /// Search on the opponent's time, after the engine's own move, until the next command arrives (see
    /// [`Engine::ponders`]).
    pub ponder: bool,
    /// A cap on the nodes of every solve, `oust-solve` and the solver of `genmove` alike, on top of their time
    /// (none in the engine; no command sets it). The fuzz harness sets a small one, so that a solve there is short
    /// and takes the same work on any machine.
    pub solver_nodes: Option<u64>,
    /// The exploration constant, or `None` for the one that suits the priors in use ([`Priors::c_puct`]); it
    /// replaces `config.c_puct` when a search is set up.
    pub cpuct: Option<f32>,
    /// The first-play urgency reduction, or `None` for the one that suits the priors in use
    /// ([`Priors::fpu_reduction`]); it replaces `config.fpu_reduction` when a search is set up.
    pub fpu_reduction: Option<f32>,
    /// Which priors the tree uses: learned, handmade, or by the board (`auto`).
    pub priors: PriorChoice,
    /// The learned priors' model, used when `priors` is `learned`: the built-in one or a `weights` file's.
    pub learned: Arc<Model>,
    /// Where [`Settings::learned`] came from: `built-in`, or the file given to `weights`.
    pub weights: String,
    /// What evaluates the leaves of the search: playouts, the network, or the engine's choice.
    pub evaluator: EvaluatorChoice,
    /// The weight of a playout in a leaf's value with the network, or `None` for the engine's choice.
    pub lambda: Option<f32>,
    /// The networks of square (and rectangular) boards and of hexhex boards.
    pub nets: [Arc<Net>; 2],
    /// Where each network came from: `built-in`, or the file given to `net_square` or `net_hex`.
    pub net_names: [String; 2],
    /// How the network is computed: in integers (the default) or in floats (the reference).
    pub precision: Precision,
    /// The cache of the network's evaluations, shared by every search of the engine (a new network or precision
    /// empties it).
    pub eval_cache: Arc<EvalCache>,
    /// The temperature of the move's draw from the search ([`crate::search::Setup::temperature`]); 0 plays the
    /// best move.
    pub temperature: f64,
    /// The strength level in force, or `None` once a setting it fixes was changed by hand (see
    /// [`super::levels`]). The defaults are full strength.
    pub level: Option<Level>,
}

impl Settings {
    /// Puts every setting a level fixes ([`super::levels::LEVEL_FIXES`]) at the default, then at what `level`
    /// fixes on boards of `shape` (hexhex boards and the others have a column each). A numbered level evaluates
    /// with playouts whatever the default evaluator is, so that it stays the opponent its calibration measured.
    pub fn set_level(&mut self, level: Level, shape: Shape) {
        let d = Settings::default();
        self.player = d.player;
        self.playouts = d.playouts;
        self.time_per_move = d.time_per_move;
        self.threads = d.threads;
        self.temperature = d.temperature;
        self.solver_share = d.solver_share;
        self.cpuct = d.cpuct;
        self.fpu_reduction = d.fpu_reduction;
        self.config = d.config;
        self.priors = d.priors;
        self.learned = d.learned;
        self.weights = d.weights;
        self.evaluator = d.evaluator;
        self.lambda = d.lambda;
        self.nets = d.nets;
        self.net_names = d.net_names;
        self.precision = d.precision;
        if let Some(spec) = level.spec(shape) {
            self.player = spec.player;
            self.playouts = spec.playouts;
            self.threads = 1;
            self.temperature = spec.temperature;
            self.solver_share = spec.solver_share;
            self.evaluator = EvaluatorChoice::Playouts;
        }
        self.level = Some(level);
    }
}

/// The evaluation cache's size at the defaults, in megabytes.
pub const EVAL_CACHE_MB: usize = 24;

/// The independent searches `oust-judge` shares its limits between.
pub const JUDGE_SEARCHES: usize = 4;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            player: PlayerKind::Mcts,
            playouts: 0,
            time_per_move: 0.0,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            resign_threshold: 0.0,
            tree_mb: 160,
            solver_share: 0.1,
            solver_mb: 16,
            config: Config::default(),
            notation: Notation::Gtp,
            pie: false,
            ponder: false,
            solver_nodes: None,
            cpuct: None,
            fpu_reduction: None,
            priors: PriorChoice::Auto,
            learned: Model::built_in(),
            weights: BUILT_IN_WEIGHTS.to_string(),
            evaluator: EvaluatorChoice::Auto,
            lambda: None,
            nets: [net::built_in(Family::Square), net::built_in(Family::Hex)],
            net_names: [BUILT_IN_WEIGHTS.to_string(), BUILT_IN_WEIGHTS.to_string()],
            precision: Precision::default(),
            eval_cache: Arc::new(EvalCache::new(EVAL_CACHE_MB)),
            temperature: 0.0,
            level: Some(Level::Full),
        }
    }
}

/// The `evaluator` parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvaluatorChoice {
    /// The engine's choice: the network where it measured stronger at equal time ([`network_is_default`]), playouts
    /// elsewhere.
    Auto,
    /// The learned (or handmade) priors and playouts.
    Playouts,
    /// The network's policy and value.
    Network,
}

impl EvaluatorChoice {
    /// The parameter's values.
    pub fn name(self) -> &'static str {
        match self {
            EvaluatorChoice::Auto => "auto",
            EvaluatorChoice::Playouts => "playouts",
            EvaluatorChoice::Network => "network",
        }
    }

    /// Whether the tree search evaluates with the network on a board of `shape`: `auto` chooses it where it
    /// measured stronger than playouts at equal time ([`network_is_default`]).
    pub fn uses_network(self, shape: Shape) -> bool {
        match self {
            EvaluatorChoice::Auto => network_is_default(shape),
            EvaluatorChoice::Playouts => false,
            EvaluatorChoice::Network => true,
        }
    }

    /// The value named `name`.
    pub fn parse(name: &str) -> Option<EvaluatorChoice> {
        [
            EvaluatorChoice::Auto,
            EvaluatorChoice::Playouts,
            EvaluatorChoice::Network,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// The boards where `evaluator auto` means the network: every board of at least [`MIN_NETWORK_POINTS`] points (5x5,
/// 4x7, 3x9, 2x13, hex-4 and larger), where it measured stronger than the learned priors with playouts at equal
/// time. The measurements: docs/results/2026-12-03-the-network.md ("Strength at equal time": 9x9 at 0.1 s and 1 s a
/// move, 7x7, 11x11 and 13x13 at 0.1 s; hex-6 to hex-9), docs/results/2026-12-05-generation-3.md (hex-5, hex-7 and
/// hex-9), and docs/results/2026-12-06-integer-inference.md for the integer network at 0.2 s a move ("The evaluator
/// by board": 15x15 to 19x19, hex-10 to hex-13; "The evaluator on every board": 5x5, 6x6, 5x8, 6x9, 4x8, 3x12, 2x20,
/// hex-4, 21x21, 23x23 and 25x25). On smaller boards `auto` means playouts: the solver decides their games from
/// the first moves (4x4, 4x5, 3x6, 2x10 and hex-3 are solved from the empty board in seconds; on 4x6 every one of
/// ten openings went to the side it favoured, whichever evaluator played it).
pub fn network_is_default(shape: Shape) -> bool {
    shape.points() >= MIN_NETWORK_POINTS
}

/// The fewest points of a board on which `evaluator auto` is the network.
pub const MIN_NETWORK_POINTS: usize = 25;

/// What `evaluator auto` means on a board of `shape`, and why where it is not the network: `network`, or
/// `playouts, as ...` with the reason (`oust-list-params` shows it).
pub fn auto_evaluator(shape: Shape) -> String {
    if network_is_default(shape) {
        "network".to_string()
    } else {
        format!(
            "playouts, as the solver decides the games of boards under {MIN_NETWORK_POINTS} points from their first moves"
        )
    }
}

/// The `priors` parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PriorChoice {
    /// The engine's choice, which may differ by board: today the learned priors on every board, where with their
    /// own exploration constant they measured stronger than the handmade ones on 9x9 and hex-7
    /// (docs/results/2026-12-02-exploration-constant.md, docs/results/2026-12-02-first-play-urgency.md).
    Auto,
    /// The learned priors on every board.
    Learned,
    /// The handmade priors on every board.
    Handmade,
}

impl PriorChoice {
    /// The parameter's values, as `oust-get-param priors` gives them.
    pub fn name(self) -> &'static str {
        match self {
            PriorChoice::Auto => "auto",
            PriorChoice::Learned => "learned",
            PriorChoice::Handmade => "handmade",
        }
    }

    /// The value named `name`.
    pub fn parse(name: &str) -> Option<PriorChoice> {
        [
            PriorChoice::Auto,
            PriorChoice::Learned,
            PriorChoice::Handmade,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// The `weights` value of the model built into the binary.
pub const BUILT_IN_WEIGHTS: &str = "built-in";

/// The engine: everything a command can read or change.
#[derive(Debug)]
pub struct Engine {
    pub(crate) game: Game,
    pub(crate) options: Options,
    pub(crate) settings: Settings,
    pub(crate) rng: Rng,
    /// True once a `gogui-rules_*` command has arrived: the controller is GoGui.
    pub(crate) gogui: bool,
    /// Names of the players of the current game, Black then White, when known: from a loaded record, or `oust`
    /// for a colour the engine has generated moves for. Reset when a new game starts.
    pub(crate) players: [Option<String>; 2],
    pub(crate) searcher: Searcher,
    /// Clocks of Black and White.
    pub(crate) clocks: [Clock; 2],
    /// Consecutive searches for each colour that ended below the resign threshold.
    pub(crate) low_streak: [u32; 2],
    /// Commands executed so far: the number of the command at hand while it runs.
    pub(crate) commands: u64,
    /// The last search of a GoGui analysis command, which the other one may answer from.
    pub(crate) shared: Option<SharedSearch>,
    /// While a cancellable command runs, the flag the session raises when the next input line arrives or the input
    /// ends: a search under way then stops and its move is taken from what it has. `None` at any other time.
    pub(crate) cancel: Option<Arc<AtomicBool>>,
    /// The game as the engine's last generated move left it, for the opponent to move: [`Engine::game_key`] of
    /// it. Pondering goes on there while the game stays so.
    pub(crate) ponder_on: Option<(usize, u64)>,
    /// The next search is the tree search alone ([`Engine::analyse_tree`]).
    tree_only: bool,
}

/// The GoGui analysis commands that answer from one search (see [`SharedSearch`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Analysis {
    /// `oust-heatmap`.
    HeatMap,
    /// `oust-pv`.
    Pv,
}

impl Analysis {
    /// The command's name.
    pub(crate) fn command(self) -> &'static str {
        match self {
            Analysis::HeatMap => "oust-heatmap",
            Analysis::Pv => "oust-pv",
        }
    }
}

/// A search made for one GoGui analysis command. The other one, sent as the very next command (so on the same
/// position and settings), answers from it instead of searching again, so that the heat map and the principal
/// variation show the same best move. A command answers from a given search once.
#[derive(Clone, Debug)]
pub(crate) struct SharedSearch {
    /// The number of the last command that answered from it ([`Engine::commands`]).
    pub(crate) command: u64,
    /// The command that searched.
    pub(crate) by: Analysis,
    /// The commands that have answered from it.
    pub(crate) used: Vec<Analysis>,
    /// The search.
    pub(crate) result: SearchResult,
}

impl Engine {
    /// An engine with an empty board of the configured shape.
    ///
    /// # Errors
    /// A message when the configured board is not supported.
    pub fn new(options: Options) -> Result<Engine, String> {
        let geo = Geometry::shared(options.board).map_err(|e| e.to_string())?;
        let mut game = Game::new(geo);
        game.set_pie(options.settings.pie)
            .map_err(|e| e.to_string())?;
        let engine = Engine {
            game,
            rng: Rng::new(options.seed),
            settings: options.settings.clone(),
            options,
            gogui: false,
            players: [None, None],
            searcher: Searcher::default(),
            clocks: [
                Clock::new(TimeSystem::Unlimited),
                Clock::new(TimeSystem::Unlimited),
            ],
            low_streak: [0, 0],
            commands: 0,
            shared: None,
            cancel: None,
            ponder_on: None,
            tree_only: false,
        };
        engine.warm_network();
        Ok(engine)
    }

    /// Makes the integer form of the network the board's search will use, if it is not made yet (30 to 45 ms, once
    /// a network): at the start and after each command, so that no `genmove` pays for it on its clock.
    pub(crate) fn warm_network(&self) {
        let s = &self.settings;
        let shape = self.game.position().geometry().shape();
        if s.precision == Precision::Int8
            && s.player == PlayerKind::Mcts
            && s.evaluator.uses_network(shape)
        {
            let _ = net::quant::quantized(&s.nets[Family::of(shape) as usize]);
        }
    }

    /// Replaces the game by a new one, with the engine's configured pie setting: both clocks start full again, the
    /// resignation counts restart and the players' names are forgotten. (The search tree notices the new game by
    /// itself.)
    pub(crate) fn start_game(&mut self, mut game: Game) {
        // A game with a swap keeps the rule it was played under (only a loaded record can have one).
        let _ = game.set_pie(self.settings.pie);
        self.start_loaded(game);
    }

    /// [`Engine::start_game`] for a loaded record's game, which keeps the rules it was played under (its pie rule):
    /// a record's rules apply to its game, and the engine's configured setting comes back with the next new game.
    pub(crate) fn start_loaded(&mut self, game: Game) {
        self.game = game;
        // A numbered level takes the column of the new board's shape.
        if let Some(level @ Level::Number(_)) = self.settings.level {
            self.settings
                .set_level(level, self.game.position().geometry().shape());
        }
        self.players = Default::default();
        for clock in &mut self.clocks {
            *clock = Clock::new(clock.system());
        }
        self.low_streak = [0, 0];
    }

    /// Restarts the random generator from `seed`.
    pub(crate) fn reseed(&mut self, seed: u64) {
        self.options.seed = seed;
        self.rng = Rng::new(seed);
    }

    /// The clock of `color`.
    pub(crate) fn clock_mut(&mut self, color: Color) -> &mut Clock {
        &mut self.clocks[color.index()]
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The engine's settings.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// True when `play` and `genmove` add move reports to their responses (see [`Reports`]).
    pub fn reports(&self) -> bool {
        match self.options.reports {
            Reports::Auto => !self.gogui,
            Reports::On => true,
            Reports::Off => false,
        }
    }

    /// True once a `gogui-rules_*` command has shown the controller to be GoGui.
    pub fn gogui_detected(&self) -> bool {
        self.gogui
    }

    /// Runs `f`, turning a panic (a bug) into an `internal error` answer so that the session goes on. The game
    /// itself is never left half changed (it only ever pushes a finished position or pops one), but the search
    /// tree might be, so it is dropped.
    pub(crate) fn guarded<T>(
        &mut self,
        f: impl FnOnce(&mut Engine) -> Result<T, GtpError>,
    ) -> Result<T, GtpError> {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(self))) {
            Ok(result) => result,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".to_string());
                log::error!("internal error (a bug, please report it): {what}");
                self.searcher.clear();
                Err(GtpError::Failed(format!(
                    "internal error: {what}; the search tree was dropped, the game is as it was"
                )))
            }
        }
    }

    /// The search settings as the searcher takes them.
    pub(crate) fn search_setup(&self) -> Setup {
        let s = &self.settings;
        let priors = match s.priors {
            PriorChoice::Auto | PriorChoice::Learned => Priors::Learned(s.learned.clone()),
            PriorChoice::Handmade => Priors::Handmade,
        };
        let c_puct = s.cpuct.unwrap_or_else(|| {
            if s.player == PlayerKind::Mcts {
                priors.c_puct()
            } else {
                Config::default().c_puct
            }
        });
        let fpu_reduction = s.fpu_reduction.unwrap_or_else(|| priors.fpu_reduction());
        let shape = self.game.position().geometry().shape();
        let family = Family::of(shape);
        let net = (s.evaluator.uses_network(shape) && s.player == PlayerKind::Mcts).then(|| {
            NetEval::new(
                s.nets[family as usize].clone(),
                s.lambda.unwrap_or(NET_LAMBDA),
                s.precision,
            )
            .with_cache(s.eval_cache.clone())
        });
        // With the network's value, a leaf is worth expanding at its first visit (its evaluation gives the priors
        // too); with playouts alone (lambda 1) the network's priors wait for `expand_visits` visits.
        let (c_puct, fpu_reduction, expand_visits) = match &net {
            Some(eval) => (
                s.cpuct.unwrap_or(NET_C_PUCT),
                s.fpu_reduction.unwrap_or(NET_FPU_REDUCTION),
                if eval.lambda < 1.0 {
                    1
                } else {
                    s.config.expand_visits
                },
            ),
            None => (c_puct, fpu_reduction, s.config.expand_visits),
        };
        Setup {
            player: self.settings.player,
            config: Config {
                c_puct,
                fpu_reduction,
                priors,
                net,
                expand_visits,
                ..self.settings.config.clone()
            },
            threads: self.settings.threads,
            tree_nodes: nodes_for_megabytes(self.settings.tree_mb),
            solver_share: self.settings.solver_share,
            solver_bytes: self.settings.solver_mb << 20,
            solver_nodes: self.settings.solver_nodes,
            temperature: self.settings.temperature,
        }
    }

    /// How long `color` may think now: the playout limit, the time per move and the clock, whichever is
    /// tightest; one second when none is set.
    pub fn limits(&self, color: Color) -> Limits {
        let s = &self.settings;
        let playouts = (s.playouts > 0).then_some(s.playouts);
        let mut time = (s.time_per_move > 0.0).then(|| Duration::from_secs_f64(s.time_per_move));
        let empties = self.game.position().empties().len();
        if let Some(budget) = self.clocks[color.index()].budget(moves_left(empties)) {
            time = Some(time.map_or(budget, |t| t.min(budget)));
        }
        if playouts.is_none() && time.is_none() {
            time = Some(DEFAULT_THINK);
        }
        Limits { playouts, time }
    }

    /// Searches the current position for its side to move within the usual limits, and takes the move to play
    /// as the settings say (drawn at the `temperature`). While a cancellable command runs, the search also stops
    /// when the session raises [`Engine::cancel`], and answers from what it has.
    pub(crate) fn think(&mut self) -> SearchResult {
        self.search_now(true, None)
    }

    /// [`Engine::think`] for an analysis: the search's own best move, never drawn, whatever the `temperature`.
    pub(crate) fn analyse(&mut self) -> SearchResult {
        self.search_now(false, None)
    }

    /// [`Engine::analyse`] for a review's judgement of the legal move `played`: [`JUDGE_SEARCHES`] searches that
    /// share the limits, each from nothing and with a seed of its own, so that the answer can say how far
    /// searches of the position disagree. Each is the tree search alone, with no solver before it (the tree proves what it
    /// reaches, for every root move), and keeps `played` at [`crate::search::FORCED_SHARE`] of the root's visits
    /// at least, so that its value is measured in the same search as the best move's.
    pub(crate) fn judge(&mut self, played: Move) -> Vec<SearchResult> {
        let part = |l: Limits| Limits {
            playouts: l.playouts.map(|p| p.div_ceil(JUDGE_SEARCHES as u64)),
            time: l.time.map(|t| t / JUDGE_SEARCHES as u32),
        };
        (0..JUDGE_SEARCHES)
            .map(|_| {
                self.searcher.forget();
                self.search_limited(false, Some(played), part)
            })
            .collect()
    }

    /// What identifies the game as it stands: its placements and its position's hash.
    pub(crate) fn game_key(&self) -> (usize, u64) {
        (self.game.records().len(), self.game.position().hash())
    }

    /// Whether the session should search on the opponent's time now: `ponder` is on, the player searches a tree
    /// under no playout limit (a fixed number of playouts, and so every numbered level, never ponders), and the
    /// game is still as the engine's own last move left it, the opponent to move.
    pub(crate) fn ponders(&self) -> bool {
        let s = &self.settings;
        s.ponder
            && s.playouts == 0
            && matches!(s.player, PlayerKind::Mcts | PlayerKind::UctPlain)
            && self.ponder_on == Some(self.game_key())
            && self.game.position().status() == Status::Ongoing
    }

    /// Searches the current position with no limit until [`Engine::cancel`] is raised (the session raises it when
    /// the next line arrives) or the search proves the position, growing the tree that the next search reuses.
    /// Neither the clocks nor any limit count it. Returns the playouts done.
    pub(crate) fn ponder(&mut self) -> u64 {
        let cancel = self.cancel.clone();
        let request = Request {
            limits: Limits {
                playouts: None,
                time: None,
            },
            seed: self.rng.next_u64(),
            stop: cancel.as_deref(),
            // As an analysis: the tree search alone, never the solver's share, and the monitor is never due.
            interval: Some(Duration::from_secs(86_400)),
        };
        let mut setup = self.search_setup();
        setup.temperature = 0.0;
        let result = self
            .searcher
            .search(&self.game, &setup, &request, &mut |_| Control::Continue);
        log::debug!(
            "ponder: {} in {:.3}s",
            crate::notation::count(result.playouts, "playout"),
            result.elapsed.as_secs_f64()
        );
        result.playouts
    }

    fn search_now(&mut self, draw: bool, forced: Option<Move>) -> SearchResult {
        self.search_limited(draw, forced, |l| l)
    }

    /// [`Engine::analyse`] by the tree search alone, with no solver's share before it: what a review's search of a
    /// position must be, so that its answer depends on nothing the solver's table kept from earlier commands.
    pub(crate) fn analyse_tree(&mut self) -> SearchResult {
        self.tree_only = true;
        self.search_now(false, None)
    }

    fn search_limited(
        &mut self,
        draw: bool,
        forced: Option<Move>,
        limit: impl Fn(Limits) -> Limits,
    ) -> SearchResult {
        let tree_only = std::mem::take(&mut self.tree_only);
        let color = self.game.position().to_move();
        let limits = limit(self.limits(color));
        let cancel = self.cancel.clone();
        let request = Request {
            limits,
            seed: self.rng.next_u64(),
            stop: cancel.as_deref(),
            // An analysis' interval runs the tree search even where the solver or a single legal move would
            // answer at once; the monitor is never due within a move.
            interval: (forced.is_some() || tree_only).then(|| Duration::from_secs(86_400)),
        };
        let mut setup = self.search_setup();
        if !draw {
            setup.temperature = 0.0;
        }
        setup.config.forced = forced;
        let result = self
            .searcher
            .search(&self.game, &setup, &request, &mut |_| Control::Continue);
        if setup.config.net.is_some() {
            let cache = self.settings.eval_cache.stats();
            log::debug!(
                "eval cache: {} of {} evaluations found so far ({:.1}%), {:.1} MB held",
                cache.hits,
                cache.lookups,
                100.0 * cache.rate(),
                self.settings.eval_cache.bytes() as f64 / (1 << 20) as f64
            );
        }
        result
    }
}
