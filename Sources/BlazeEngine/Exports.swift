@_exported import BlazeEngineCore
