package analysis

// CheckStagePhases is checkStagePhases for the external tests.
var CheckStagePhases = checkStagePhases
