-- pending.lua — the guides' checks that wait for a feature moonflow lacks.
-- One line per check: its key (as the spec's G.it names it), the guide and
-- section, why it cannot run, and the issue that brings the feature. The
-- spec of each is written (tests/guides/*_spec.lua) and reported as a TAP
-- SKIP; deleting its line here (or adding `on = true`) switches it on.
-- Checks that should pass today but give a wrong answer are not here: they
-- are known failures (KNOWN_FAILURES.md). The graphs guide
-- (intro_to_graphs_spec.lua) has no pending check.
local A = "Introduction to gradients and automatic differentiation"
local AA = "Advanced automatic differentiation"
local M = "Introduction to modules, layers, and models"

return {
  ["autodiff/adjust_contrast"] = { guide = A, section = "No gradient registered", why = "moonflow has no tf.image.adjust_contrast and no LookupError for an op without a gradient", issue = "none yet: a missing op (README Limits)" },
  ["modules/list_variables"] = { guide = M, section = "Saving weights", why = "moonflow has no tf.train.list_variables", issue = "none yet: a missing function (README Limits)" },
  ["modules/restore"] = { guide = M, section = "Saving weights", why = "moonflow's Checkpoint has :read (API.md) but no :restore, and does not defer a restore into variables not yet created (it fails loudly, checked beside)", issue = "none yet: Checkpoint:restore and the deferred restore (issue 24 chose to fail loudly)" },
  ["modules/tensorboard"] = { guide = M, section = "Saving functions (TensorBoard trace)", why = "moonflow has no tf.summary nor tf.profiler (graphs are drawn by %graph instead)", issue = "none: TensorBoard is out of scope (README Limits)" },
  ["modules/keras_save"] = { guide = M, section = "Saving Keras models", why = "moonflow has no Keras model subclassing nor .keras saving", issue = 27 },
}
